// `conduit info`: what a running host offers, and its counters.
#include <cstdio>
#include <map>
#include <utility>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "host/address.h"
#include "host/admin_socket.h"
#include "host/host_query.h"
#include "wire/address.h"
#include "wire/gl_opcodes.h"

namespace cli {
namespace {

struct InfoArgs {
  std::string address;
  std::string admin;
  std::string token;
  std::string token_file;
  bool insecure = false;
  bool stats = false;
};

std::string version_text(uint32_t code) {
  return code ? std::to_string(code / 10) + "." + std::to_string(code % 10) : "none";
}

// The extensions guests care most about, where the host has them.
void print_extensions(const char* label, const std::string& list) {
  static const char* const kInteresting[] = {
      "GL_EXT_read_format_bgra", "GL_OES_EGL_image", "GL_EXT_texture_format_BGRA8888",
      "GL_KHR_robustness", "GL_EXT_robustness", "GL_ARB_robustness", "GL_EXT_buffer_storage",
      "GL_ARB_buffer_storage", "GL_EXT_disjoint_timer_query", "GL_KHR_debug",
      "GL_EXT_texture_compression_s3tc", "GL_OES_texture_compression_astc", "GL_ARB_get_program_binary",
      "GL_OES_get_program_binary", "GL_ARB_compute_shader", "GL_EXT_color_buffer_float"};
  std::string found;
  std::string padded = " " + list + " ";
  for (const char* e : kInteresting) {
    if (padded.find(std::string(" ") + e + " ") != std::string::npos) found += std::string(" ") + e;
  }
  if (!list.empty()) std::printf("%-22s%s\n", label, found.empty() ? " (none of interest)" : found.c_str());
}

// Extensions the host offers that guests do not see, each with its reason.
void print_hidden_extensions(const nlohmann::json& host) {
  const std::pair<const char*, wire::GlApi> lists[] = {{"gles1_extensions", wire::GlApi::kGles1},
                                                       {"gles_extensions", wire::GlApi::kGles},
                                                       {"gl_extensions", wire::GlApi::kGl},
                                                       {"gl_compat_extensions", wire::GlApi::kGl}};
  std::map<std::string, const char*> hidden;  // extension -> reason
  for (const auto& [key, api] : lists) {
    std::istringstream in(host.value(key, ""));
    for (std::string e; in >> e;) {
      if (const char* reason = wire::gl_extension_block_reason(e.c_str(), api)) hidden.emplace(e, reason);
    }
  }
  bool first = true;
  for (const auto& [e, reason] : hidden) {
    if (first) std::printf("hidden from guests    (not forwarded, and why)\n");
    first = false;
    std::printf("  %-44s %s\n", e.c_str(), reason);
  }
}

// The whole host's counters come from its admin socket; a guest's own
// connection would show only its own session.
int print_host_stats(const InfoArgs& a, const std::string& address) {
  std::string path = !a.admin.empty() ? a.admin : host::admin_path({address});
  auto text = host::read_admin(path);
  if (!text) {
    std::fprintf(stderr, "conduit info: admin socket %s: %s\n", path.c_str(), text.error().describe().c_str());
    return 1;
  }
  nlohmann::json stats = nlohmann::json::parse(*text, nullptr, false);
  std::printf("%s\n", stats.is_discarded() ? text->c_str() : stats.dump(2).c_str());
  return 0;
}

int run_info(const InfoArgs& a) {
  std::string address = a.address.empty() ? wire::address_from_environment() : a.address;
  if (a.stats) return print_host_stats(a, address);
  wire::TransportOptions link;
  link.token = a.token;
  link.insecure = a.insecure;
  if (!read_token_option("conduit info", a.token_file, &link.token)) return 2;
  auto offer = host::query_host(address, link);
  if (!offer) {
    std::fprintf(stderr, "conduit info: %s: %s\n", address.c_str(), offer.error().describe().c_str());
    return 1;
  }
  nlohmann::json stats = nlohmann::json::parse(offer->stats_json, nullptr, false);
  const auto& h = offer->hello;
  std::printf("host                  %s\n", address.c_str());
  std::printf("protocol              %u\n", h.protocol_version);
  std::printf("platform              %s\n", offer->platform.c_str());
  std::printf("renderer              %s\n", offer->renderer.c_str());
  std::printf("vendor                %s\n", offer->vendor.c_str());
  std::printf("OpenGL ES             %s\n", version_text(h.max_gles_version).c_str());
  std::printf("OpenGL core           %s\n", version_text(h.max_gl_core_version).c_str());
  std::printf("OpenGL compatibility  %s\n", version_text(h.max_gl_compat_version).c_str());
  std::printf("max batch             %u bytes\n", h.max_batch_bytes);
  std::printf("features             %s%s%s%s%s\n", h.features & wire::kFeatureCompression ? " compression" : "",
              h.features & wire::kFeatureBlobHeap ? " blob-heap" : "",
              h.features & wire::kFeatureGles1 ? " gles1" : "",
              h.features & wire::kFeatureGlImages ? " gl-images" : "",
              h.features & wire::kFeatureSrgbSurfaces ? " srgb-surfaces" : "");
  if (!stats.is_discarded() && stats.contains("host")) {
    const auto& host = stats["host"];
    std::printf("EGL                   %s\n", host.value("egl_version", "").c_str());
    if (h.features & wire::kFeatureGles1) {
      std::printf("OpenGL ES 1.x         %s\n", host.value("gles1_version", "").c_str());
    }
    print_extensions("OpenGL ES extensions", host.value("gles_extensions", ""));
    print_extensions("OpenGL extensions", host.value("gl_extensions", ""));
    print_hidden_extensions(host);
  }
  return 0;
}

}  // namespace

CLI::App* add_info_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("info", "Connect to a host and print what it offers (renderer, "
                                         "versions, platform, extensions), or its counters with --stats.");
  auto args = std::make_shared<InfoArgs>();
  cmd->add_option("--host", args->address,
                  std::string("Host address (") + kHostAddressForms + "); default: CONDUIT_HOST, else " +
                      wire::default_address());
  cmd->add_option("--token", args->token, "Token of the host (keys TLS on tcp:)")
      ->envname("CONDUIT_TOKEN");
  cmd->add_option("--token-file", args->token_file,
                  "File whose first line is the token (overrides --token; owner-only, like an ssh "
                  "key)")
      ->envname("CONDUIT_TOKEN_FILE");
  cmd->add_flag("--insecure", args->insecure,
                "Plaintext tcp: for a host started with --insecure")
      ->envname("CONDUIT_INSECURE");
  cmd->add_flag("--stats", args->stats,
                "Print the host's counters as JSON, read from its admin socket: total and per live "
                "session (batches, commands, bytes on the wire and raw, round trips, frames, lost "
                "contexts, memory), and renderer processes (live, started, crashed, refused)");
  cmd->add_option("--admin", args->admin,
                  "The host's admin socket for --stats; default: derived from --host (unix:PATH or "
                  "shm:PATH gives PATH.admin)");
  cmd->callback([status, args] { *status = run_info(*args); });
  return cmd;
}

}  // namespace cli
