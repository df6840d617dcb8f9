// `conduit host`: the host renderer daemon (foreground, logs to stderr).
#include <sys/stat.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <string>

#include "commands.h"
#include "host_viewers.h"
#include "host/address.h"
#include "host/log.h"
#include "host/memory_budget.h"
#include "host/server.h"
#include "wire/address.h"

namespace cli {
namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop.store(true); }

void install_signal_handlers() {
  struct sigaction sa = {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a guest that vanished is an error value, not a signal
}

// A ring file is meant for a VM: say how to give it to QEMU as ivshmem.
void log_qemu_options(const std::string& address) {
  auto ring = wire::Address::parse(address);
  if (!ring || ring->kind != wire::Address::Kind::kShmFile) return;
  const std::string& path = ring->path;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return;
  host::log_line("  for QEMU: -object memory-backend-file,id=conduit,size=%lld,share=on,mem-path=%s "
                 "-device ivshmem-plain,memdev=conduit (guest: CONDUIT_HOST=ivshmem:auto)",
                 static_cast<long long>(st.st_size), path.c_str());
}

// "512M", "2G", "65536": bytes with an optional K/M/G (1024-based) suffix.
bool parse_size(const std::string& text, size_t* out) {
  auto v = host::parse_size(text);
  if (!v || *v > SIZE_MAX) return false;
  *out = static_cast<size_t>(*v);
  return true;
}

CLI::Validator size_validator() {
  return CLI::Validator(
      [](std::string& s) {
        size_t v = 0;
        return parse_size(s, &v) && v > 0 ? std::string() : "expected a size such as 512M or 2G";
      },
      "SIZE");
}

CLI::Validator tile_size_validator() {
  return CLI::Validator(
      [](std::string& s) {
        unsigned w = 0, h = 0;
        char end = 0;
        const bool ok = std::sscanf(s.c_str(), "%ux%u%c", &w, &h, &end) == 2 && w >= 64 && h >= 64 &&
                        w <= 16384 && h <= 16384;
        return ok ? std::string() : "expected WIDTHxHEIGHT, each 64 to 16384";
      },
      "");
}

struct HostArgs {
  HostArgs() { opts.program_cache = "auto"; }
  host::HostOptions opts;
  std::string platform = "auto";
  std::string max_guest_memory = "2G";
  std::string max_object_size = "512M";
  std::string max_batch = "576M";
  std::string token_file;
  std::string renderer_memory = "auto";
  std::string program_cache_size = "512M";
  std::string max_host_memory = std::to_string(host::kDefaultHostMemoryPercent) + "%";
  double ring_silence = wire::TransportOptions{}.ring_silence.count() / 1000.0;
  double renderer_watchdog = host::HostOptions{}.renderer_watchdog.count() / 1000.0;
  double renderer_stall = host::HostOptions{}.renderer_stall.count() / 1000.0;
  ViewerOptions viewers;
};

int run_host(HostArgs& a) {
  host::HostOptions& o = a.opts;
  auto platform = host::parse_platform(a.platform);
  if (!platform) {
    std::fprintf(stderr, "conduit host: %s\n", platform.error().detail.c_str());
    return 2;
  }
  o.display.platform = *platform;
  parse_size(a.max_guest_memory, &o.limits.guest.max_total_bytes);
  parse_size(a.max_object_size, &o.limits.guest.max_object_bytes);
  parse_size(a.max_batch, &o.limits.max_batch_bytes);
  if (!read_token_option("conduit host", a.token_file, &o.token)) return 2;
  if (o.insecure) {
    host::log_line("--insecure: tcp: listeners serve plaintext; the token and every batch cross "
                   "the network readable and changeable");
  }
  if (a.renderer_memory != "auto") parse_size(a.renderer_memory, &o.renderer_data_bytes);
  o.program_cache_max = host::parse_size(a.program_cache_size).value_or(o.program_cache_max);
  o.max_host_memory = host::parse_memory_share(a.max_host_memory, host::physical_memory_bytes()).value_or(0);
  o.ring_silence = std::chrono::milliseconds(std::llround(a.ring_silence * 1000));
  o.renderer_watchdog = std::chrono::milliseconds(std::llround(a.renderer_watchdog * 1000));
  o.renderer_stall = std::chrono::milliseconds(std::llround(a.renderer_stall * 1000));
  // Renderers are this same program, started afresh for each guest.
  o.renderer_exe = "/proc/self/exe";
  if (o.admin.empty()) o.admin = host::admin_path(o.listen);
  install_signal_handlers();
  HostViewers viewers(a.viewers);
  o.compositor = viewers.compositor();
  auto server = host::Server::create(o);
  if (!server) {
    host::log_line("%s", server.error().describe().c_str());
    return 1;
  }
  if (!viewers.start(**server)) return 1;
  const host::RendererInfo& info = (*server)->info();
  host::log_line("platform %s, EGL %s", info.platform.c_str(), info.egl_version.c_str());
  host::log_line("renderer %s (%s)", info.renderer.c_str(), info.vendor.c_str());
  host::log_line("OpenGL ES 1.x: %s", info.gles1_version.empty() ? "none" : info.gles1_version.c_str());
  host::log_line("OpenGL ES: %s", info.gles_version.empty() ? "none" : info.gles_version.c_str());
  host::log_line("OpenGL core: %s", info.gl_core_version.empty() ? "none" : info.gl_core_version.c_str());
  host::log_line("OpenGL compatibility: %s",
                 info.gl_compat_version.empty() ? "none" : info.gl_compat_version.c_str());
  for (const auto& addr : (*server)->addresses()) {
    host::log_line("listening on %s", addr.c_str());
    log_qemu_options(addr);
  }
  host::log_line("counters for `conduit info --stats` on %s", o.admin.c_str());
  const int rc = viewers.serve(**server, g_stop);
  host::log_line("exiting: %s", (*server)->summary().c_str());
  return rc;
}

}  // namespace

CLI::App* add_host_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("host", "Run the host renderer: executes guest OpenGL, OpenGL ES and Vulkan "
                                         "command streams on this machine's GPU (foreground, logs to stderr).");
  auto args = std::make_shared<HostArgs>();
  host::HostOptions& o = args->opts;
  cmd->add_option("--listen", o.listen,
                  "Address to accept guests on; repeatable. unix:PATH, tcp:HOST:PORT (TLS, needs --token-file), "
                  "shm:PATH (rings for local guests) or shm:file=PATH (a polled ring file for one "
                  "QEMU guest, exposed to it as an ivshmem-plain device). Default: " + wire::default_address() +
                      " ($XDG_RUNTIME_DIR/conduit/host.sock, or /tmp/conduit-$UID/host.sock without XDG_RUNTIME_DIR)");
  cmd->add_option("--token", o.token,
                  "Shared secret guests must know (needed for tcp:, where it keys TLS). Other local "
                  "users can read a command line: prefer --token-file")
      ->envname("CONDUIT_TOKEN");
  cmd->add_option("--token-file", args->token_file,
                  "File whose first line is the token (overrides --token); refused when group or "
                  "others may access it, like an ssh key");
  cmd->add_flag("--insecure", o.insecure,
                "Serve tcp: listeners without TLS: the token crosses in clear and batches can be "
                "read and changed on the network. Guests must set CONDUIT_INSECURE=1");
  cmd->add_option("--allow-uid", o.allow_uids,
                  "Also accept unix: and shm: guests running as this uid (the host's own uid and root "
                  "always are); repeatable. Sockets then open to all users and the uid decides")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--platform", args->platform,
                  "EGL platform: device (EGL_EXT_platform_device), gbm (render node), surfaceless "
                  "(Mesa), or auto = the first that works in that order")
      ->check(CLI::IsMember({"auto", "device", "gbm", "surfaceless"}))
      ->capture_default_str();
  cmd->add_option("--gpu", o.display.gpu, "EGL device index (device platform) or render node index "
                                         "(gbm: renderD128 + N); default: the first that works")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-guest-memory", args->max_guest_memory,
                  "Bytes of buffers, textures, renderbuffers and surfaces one guest may hold "
                  "together, charged per object (K/M/G suffixes)")
      ->check(size_validator())
      ->capture_default_str();
  cmd->add_option("--max-object-size", args->max_object_size,
                  "Bytes of one buffer or texture upload of a guest")
      ->check(size_validator())
      ->capture_default_str();
  cmd->add_flag("--promote-shader-precision", o.limits.guest.promote_shader_precision,
                "Compile GLSL ES mediump as highp: faster on software rasterizers that "
                "emulate 16-bit floats, but precision mismatches between declarations no "
                "longer fail to compile or link");
  cmd->add_option("--max-objects", o.limits.guest.max_objects, "GL object names one guest may hold")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-draw-vertices", o.limits.guest.max_draw_vertices,
                  "Vertices one draw of a guest may process, instances included")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-dispatch-groups", o.limits.guest.max_dispatch_groups,
                  "Workgroups one Vulkan dispatch of a guest may run")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--submission-timeout", o.limits.guest.submission_timeout_s,
                  "Seconds a guest's Vulkan work may run before its device is lost and its renderer ends (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--max-batch", args->max_batch, "Largest command batch after decompression")
      ->check(size_validator())
      ->capture_default_str();
  cmd->add_option("--max-contexts", o.limits.max_contexts, "Contexts one guest may hold")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-surfaces", o.limits.max_surfaces, "Surfaces one guest may hold")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--frame-buffers", o.limits.frame_ring,
                  "Pixel buffer objects per surface for asynchronous frame readback (frames in flight)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  cmd->add_option("--max-guests", o.max_guests,
                  "Guest programs served at once, each by a renderer process of its own")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-guests-per-peer", o.max_guests_per_peer,
                  "Guest programs one peer may run at once (a local user, a TCP address)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-host-memory", args->max_host_memory,
                  "Memory all renderer processes may hold together (their private and shared "
                  "memory, measured): at or beyond it new guests are refused with a message and "
                  "served guests carry on. A size (K/M/G) or a share of physical memory (N%)")
      ->check(CLI::Validator(
          [](std::string& s) {
            auto v = host::parse_memory_share(s, host::physical_memory_bytes());
            return v && *v > 0 ? std::string() : "expected a size such as 8G, or a share such as 75%";
          },
          "SIZE|N%"))
      ->capture_default_str();
  cmd->add_option("--renderer-memory", args->renderer_memory,
                  "Hard limit on a renderer process's memory (RLIMIT_DATA), behind "
                  "--max-guest-memory; auto = twice --max-guest-memory plus 1G")
      ->check(CLI::Validator(
          [](std::string& s) {
            size_t v = 0;
            return s == "auto" || (parse_size(s, &v) && v > 0) ? std::string() : "expected auto or a size";
          },
          "SIZE|auto"))
      ->capture_default_str();
  cmd->add_option("--renderer-watchdog", args->renderer_watchdog,
                  "Seconds a renderer process may stop answering the host (its main loop beats "
                  "ten times a second while its guests are busy, four times a watchdog period "
                  "while they are idle) before it is killed and its guest's slot given back; "
                  "also how long one may outlive its guest")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  cmd->add_option("--renderer-stall", args->renderer_stall,
                  "Seconds a renderer's session may spend on one piece of its guest's work (a "
                  "batch, its frames, its teardown: a driver call that does not return) before "
                  "the renderer is killed and its guest's slot given back")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  cmd->add_option("--renderer-user", o.renderer_user,
                  "Whom renderer processes run as when the host runs as root: a user's name or "
                  "number, with its groups and those of the GPU's device nodes; auto = "
                  "conduit-renderer where that user exists, else nobody; root keeps them uid 0 "
                  "(without capabilities). A host not run as root gives them its own user")
      ->capture_default_str();
  cmd->add_option("--renderer-cache", o.renderer_cache,
                  "Where renderers' drivers keep compiled shaders: each renderer gets a folder of "
                  "its own inside (made for it, writable by it alone, removed when it ends); "
                  "auto = a fresh folder under TMPDIR, removed at exit; a folder must belong to "
                  "this user and be writable by no one else; off = drivers' disk caches off")
      ->capture_default_str();
  cmd->add_option("--program-cache", o.program_cache,
                  "Folder of the persistent program cache, which the host keeps for renderers "
                  "(they never open it), of GL program binaries and Vulkan pipeline cache data: "
                  "auto = $XDG_CACHE_HOME/conduit (else ~/.cache/conduit); "
                  "off = every program and pipeline compiled afresh")
      ->type_name("DIR|auto|off")
      ->capture_default_str();
  cmd->add_option("--cache-scope", o.cache_scope,
                  "Who shares program cache entries: guest = each guest identity (local user, "
                  "remote address, ring file) its own; host = every guest (docs/host.md)")
      ->check(CLI::IsMember({"guest", "host"}))
      ->capture_default_str();
  cmd->add_option("--program-cache-size", args->program_cache_size,
                  "Size cap of each scope's program cache folder; the entries used longest ago go first")
      ->check(size_validator())
      ->capture_default_str();
  cmd->add_option("--ring-silence", args->ring_silence,
                  "Seconds a guest on a polled ring (shm:file=, ivshmem) may show no sign of life "
                  "before its session ends: long, so that a guest whose virtual CPUs a loaded host "
                  "does not run for a while keeps its session (guests: CONDUIT_RING_SILENCE)")
      ->check(CLI::Range(0.001, 86400.0))
      ->capture_default_str();
  cmd->add_option("--admin", o.admin,
                  "Owner-only unix socket serving the host's counters to `conduit info --stats`; "
                  "default: the first unix: or shm: socket's path + .admin");
  cmd->add_option("--capture-dir", o.capture_dir,
                  "Capture every guest session into DIR/conduit-<host pid>-<session>.cdcap, for "
                  "`conduit replay` (docs/capture.md)")
      ->check(CLI::ExistingDirectory)
      ->type_name("DIR");
  cmd->add_flag("--log-frame-hashes", o.log_frame_hashes,
                "Log each frame's hash as it goes to its guest (the hashes `conduit replay --hashes` prints)");
  ViewerOptions& v = args->viewers;
  cmd->add_flag("--window", v.window,
                "Show every guest window in a host window (SDL2): one tile per window, labelled "
                "with its program and guest; keys and the pointer go to the window clicked last; "
                "F11 shows that window alone. Closing the host window stops the host");
  cmd->add_option_function<std::string>(
         "--tile-size",
         [&v](const std::string& size) {
           std::sscanf(size.c_str(), "%ux%u", &v.tile_width, &v.tile_height);
         },
         "Largest a guest window is shown in --window and --vnc before it is scaled down "
         "(keeping its shape); default 960x720")
      ->type_name("WxH")
      ->check(tile_size_validator());
  cmd->add_option("--vnc", v.vnc,
                  "Serve the same picture to VNC viewers and browsers (RFB with Tight/JPEG, noVNC "
                  "pages and its WebSocket on the same port) at HOST:PORT, or PORT on 127.0.0.1 "
                  "(e.g. 5900); "
                  "a non-loopback address needs --vnc-password-file. Viewers' keys and pointer "
                  "reach the guest program under them")
      ->type_name("[HOST:]PORT");
  cmd->add_option("--vnc-password-file", v.vnc_password_file,
                  "File whose first line is the viewers' password (VNC authentication: its first "
                  "8 characters count); only its owner may read it")
      ->type_name("FILE");
  cmd->add_option("--vnc-cert", v.vnc_cert, "PEM certificate for WebSocket connections over TLS (wss://)")
      ->type_name("FILE");
  cmd->add_option("--vnc-key", v.vnc_key, "The PEM private key of --vnc-cert")->type_name("FILE");
  cmd->add_option("--novnc-dir", v.novnc_dir,
                  "noVNC's files, served to browsers at http://HOST:PORT/ (default /usr/share/novnc)")
      ->type_name("DIR");
  cmd->add_option("--vnc-handshake-timeout", v.vnc_handshake_timeout,
                  "Seconds a --vnc connection has to become a viewer (RFB handshake, password, first "
                  "request) or to send its page request before it is closed")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--vnc-idle-timeout", v.vnc_idle_timeout,
                  "Seconds a --vnc viewer may send nothing before it is closed (0: never); a live "
                  "viewer keeps asking for pictures")
      ->check(CLI::Range(0.0, 604800.0))
      ->capture_default_str();
  cmd->add_option("--vnc-password-tries", v.vnc_password_tries,
                  "Wrong --vnc passwords from one address (an IPv6 /64), each within "
                  "--vnc-password-backoff of the last, before it is refused for that long (0: no limit)")
      ->check(CLI::Range(0u, 1000u))
      ->capture_default_str();
  cmd->add_option("--vnc-password-backoff", v.vnc_password_backoff,
                  "Seconds an address is refused after --vnc-password-tries wrong passwords")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  cmd->add_flag("--test-faults", o.limits.test_faults,
                "Let guests make their renderer crash or try refused calls (isolation tests only)")
      ->group("");
  cmd->callback([status, args] { *status = run_host(*args); });
  return cmd;
}

}  // namespace cli
