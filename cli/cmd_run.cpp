// `conduit run [--host ADDR] -- PROGRAM ARGS...`: runs an unmodified program
// with the Conduit vendor libraries selected, against the host the user
// named (--host or CONDUIT_HOST; if it cannot be used, nothing runs), else
// the local default host, else a private one started for the program's
// lifetime.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "commands.h"
#include "wire/address.h"
#include "host/capture_reader.h"
#include "wire/transport.h"

namespace cli {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct RunArgs {
  std::string host;
  bool private_host = false;
  std::string capture;  // the program's session captured here (a private host's)
  std::vector<std::string> command;
};

fs::path self_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(".") : exe.parent_path();
}

// The EGL vendor manifest: the build tree's beside this binary, else an
// installed one.
std::optional<fs::path> find_manifest() {
  const fs::path dir = self_dir();
  std::vector<fs::path> candidates = {dir / ".." / "guest-icd" / "conduit_egl_build.json"};
  for (const char* base : {"share/glvnd/egl_vendor.d", "../share/glvnd/egl_vendor.d"})
    for (const char* name : {"10_conduit.json", "60_conduit.json"})
      candidates.push_back(dir / ".." / base / name);
  for (const char* base : {"/etc/glvnd/egl_vendor.d", "/usr/share/glvnd/egl_vendor.d",
                           "/usr/local/share/glvnd/egl_vendor.d"})
    for (const char* name : {"10_conduit.json", "60_conduit.json"}) candidates.push_back(fs::path(base) / name);
  for (const auto& c : candidates)
    if (fs::exists(c)) return fs::weakly_canonical(c);
  return std::nullopt;
}

// The Vulkan ICD manifest: the build tree's beside this binary, else an
// installed one.
std::optional<fs::path> find_vulkan_manifest() {
  const fs::path dir = self_dir();
  std::vector<fs::path> candidates = {dir / ".." / "guest-icd" / "conduit_icd_build.json",
                                      dir / ".." / "share/vulkan/icd.d/conduit_icd.x86_64.json"};
  for (const char* base : {"/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/etc/vulkan/icd.d"})
    candidates.push_back(fs::path(base) / "conduit_icd.x86_64.json");
  for (const auto& c : candidates)
    if (fs::exists(c)) return fs::weakly_canonical(c);
  return std::nullopt;
}

// The folder of the vendor library a manifest names, for LD_LIBRARY_PATH
// (libglvnd finds libGLX_<name>.so.0 by library search only).
std::string library_dir(const fs::path& manifest) {
  std::ifstream in(manifest);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const size_t key = s.find("\"library_path\"");
  const size_t open = key == std::string::npos ? key : s.find('"', s.find(':', key));
  const size_t close = open == std::string::npos ? open : s.find('"', open + 1);
  if (close == std::string::npos) return {};
  fs::path lib(s.substr(open + 1, close - open - 1));
  return lib.is_absolute() ? lib.parent_path().string() : std::string();
}

// Connects once as the program will (same token and switches from the
// environment); the error says why that failed.
wire::Status probe(const std::string& address) {
  auto opts = wire::options_from_environment();
  if (!opts) return opts.error();
  auto channel = wire::connect(address, *opts);
  if (!channel) return channel.error();
  (*channel)->close();
  return {};
}

bool reachable(const std::string& address) { return probe(address).ok(); }

// A `conduit host` child listening on a socket in a private folder.
class PrivateHost {
 public:
  ~PrivateHost() { stop(); }

  // Starts it and waits until it accepts; its log goes to a file that is
  // shown if it does not come up.
  // `capture`: the program's sessions are captured, and moved to this file
  // (later sessions to FILE.2, FILE.3, ...) when the host stops.
  bool start(const std::string& capture = {}) {
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    std::string templ = std::string(runtime && *runtime ? runtime : "/tmp") + "/conduit-run-XXXXXX";
    if (!mkdtemp(templ.data())) return false;
    dir_ = templ;
    // Shared-memory rings: the fastest path between two processes of one
    // machine (frames travel through the blob heap, not the socket).
    address_ = "shm:" + (dir_ / "host.sock").string();
    capture_to_ = capture;
    const std::string captures = (dir_ / "captures").string();
    if (!capture_to_.empty() && !fs::create_directory(captures)) return false;
    const std::string log = (dir_ / "host.log").string();
    const std::string exe = (self_dir() / "conduit").string();
    pid_ = fork();
    if (pid_ < 0) return false;
    if (pid_ == 0) {
      // The host renders with the machine's own drivers, never with ours.
      for (const char* var : {"__EGL_VENDOR_LIBRARY_FILENAMES", "__GLX_VENDOR_LIBRARY_NAME", "VK_DRIVER_FILES",
                              "VK_ICD_FILENAMES"})
        if (const char* v = std::getenv(var); v && std::strstr(v, "conduit")) unsetenv(var);
      // The layers the program asks for are the program's: in the renderer a
      // capture layer would fail the host's instance, as it may not write its file.
      for (const char* var : {"VK_INSTANCE_LAYERS", "VK_LOADER_LAYERS_ENABLE"}) unsetenv(var);
      if (FILE* f = std::freopen(log.c_str(), "w", stderr)) (void)f;
      dup2(STDERR_FILENO, STDOUT_FILENO);
      if (!capture_to_.empty())
        execl(exe.c_str(), exe.c_str(), "host", "--listen", address_.c_str(), "--capture-dir", captures.c_str(),
              static_cast<char*>(nullptr));
      else
        execl(exe.c_str(), exe.c_str(), "host", "--listen", address_.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      if (reachable(address_)) return true;
      std::this_thread::sleep_for(50ms);
    }
    std::fprintf(stderr, "conduit run: the private host did not start; its log:\n");
    std::ifstream in(log);
    std::fprintf(stderr, "%s", std::string(std::istreambuf_iterator<char>(in), {}).c_str());
    return false;
  }

  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      const auto deadline = std::chrono::steady_clock::now() + 5s;
      int status = 0;
      while (waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          kill(pid_, SIGKILL);
          waitpid(pid_, &status, 0);
          break;
        }
        std::this_thread::sleep_for(20ms);
      }
      pid_ = -1;
    }
    if (!dir_.empty()) {
      std::error_code ec;
      if (!capture_to_.empty()) move_captures();
      fs::remove_all(dir_, ec);
      dir_.clear();
    }
  }

  const std::string& address() const { return address_; }

 private:
  // Whether a capture holds any batch: the connection start() made to see
  // that the host was up holds none.
  static bool has_batches(const fs::path& path) {
    auto reader = host::capture::Reader::open(path.string());
    if (!reader) return true;  // not ours to judge: replay says what is wrong
    for (;;) {
      auto rec = (*reader)->next();
      if (!rec || !*rec) return !rec;
      if ((**rec).kind == host::capture::RecordKind::kBatch) return true;
    }
  }

  // The program's session files, in the order the host numbered them.
  void move_captures() {
    std::vector<std::pair<unsigned long, fs::path>> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_ / "captures", ec)) {
      if (!has_batches(e.path())) continue;
      const std::string name = e.path().stem().string();
      files.emplace_back(std::strtoul(name.substr(name.rfind('-') + 1).c_str(), nullptr, 10), e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) std::fprintf(stderr, "conduit run: --capture: the program opened no session\n");
    for (size_t i = 0; i < files.size(); ++i) {
      const std::string to = i == 0 ? capture_to_ : capture_to_ + "." + std::to_string(i + 1);
      fs::rename(files[i].second, to, ec);
      if (ec) {
        fs::copy_file(files[i].second, to, fs::copy_options::overwrite_existing, ec);
      }
      if (ec) std::fprintf(stderr, "conduit run: --capture: cannot write %s: %s\n", to.c_str(), ec.message().c_str());
    }
  }

  pid_t pid_ = -1;
  std::string capture_to_;
  fs::path dir_;
  std::string address_;
};

volatile sig_atomic_t g_child = 0;

void forward_signal(int sig) {
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}

// Waits for the program; termination signals sent to us go on to it, so we
// stay to stop the private host after it.
int wait_child(pid_t pid) {
  g_child = pid;
  struct sigaction forward = {}, old_int = {}, old_term = {}, old_hup = {};
  forward.sa_handler = forward_signal;
  sigemptyset(&forward.sa_mask);
  sigaction(SIGINT, &forward, &old_int);
  sigaction(SIGTERM, &forward, &old_term);
  sigaction(SIGHUP, &forward, &old_hup);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  g_child = 0;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

int run_program(RunArgs& a) {
  std::vector<std::string> cmd = a.command;
  if (!cmd.empty() && cmd.front() == "--") cmd.erase(cmd.begin());
  // CLI11 hands the separator back after the program's own arguments.
  if (!cmd.empty() && cmd.back() == "--") cmd.pop_back();
  if (cmd.empty()) {
    std::fprintf(stderr, "conduit run: no program given (conduit run -- PROGRAM ARGS...)\n");
    return 2;
  }
  auto manifest = find_manifest();
  if (!manifest) {
    std::fprintf(stderr, "conduit run: the Conduit EGL vendor manifest was not found\n");
    return 1;
  }

  // A host the user named is used or nothing runs: quietly rendering
  // somewhere else would hide a wrong address, token or TLS setting.
  const char* env_host = std::getenv("CONDUIT_HOST");
  const std::string named = !a.host.empty() ? a.host : env_host && *env_host ? env_host : "";
  const char* named_by = !a.host.empty() ? "--host" : "CONDUIT_HOST";
  std::string address = named.empty() ? wire::default_address() : named;
  PrivateHost private_host;
  if (!a.private_host && !named.empty()) {
    if (auto st = probe(address); !st) {
      std::fprintf(stderr,
                   "conduit run: cannot use the host %s=%s: %s\n"
                   "conduit run: not starting %s (a private host runs only without --host and "
                   "CONDUIT_HOST, or with --private-host)\n",
                   named_by, address.c_str(), st.error().describe().c_str(), cmd.front().c_str());
      return 1;
    }
  } else if (a.private_host || !a.capture.empty() || !reachable(address)) {
    if (!private_host.start(a.capture)) return 1;
    address = private_host.address();
  }

  setenv("__EGL_VENDOR_LIBRARY_FILENAMES", manifest->c_str(), 1);
  setenv("__GLX_VENDOR_LIBRARY_NAME", "conduit", 1);
  // Vulkan programs see Conduit's ICD alone; the machine's stay for other programs.
  if (auto vk_manifest = find_vulkan_manifest()) {
    setenv("VK_DRIVER_FILES", vk_manifest->c_str(), 1);
    unsetenv("VK_ICD_FILENAMES");
  }
  setenv("CONDUIT_HOST", address.c_str(), 1);
  if (std::string libs = library_dir(*manifest); !libs.empty()) {
    const char* old = std::getenv("LD_LIBRARY_PATH");
    if (old && *old) libs += std::string(":") + old;
    setenv("LD_LIBRARY_PATH", libs.c_str(), 1);
  }

  std::vector<char*> argv;
  for (auto& s : cmd) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("conduit run: fork");
    return 1;
  }
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "conduit run: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  const int status = wait_child(pid);
  private_host.stop();  // a capture is complete once its host has stopped
  return status;
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand(
      "run", "Run a program with Conduit's OpenGL, OpenGL ES and Vulkan selected: "
             "conduit run [--host ADDR] -- PROGRAM ARGS...");
  auto args = std::make_shared<RunArgs>();
  auto* host = cmd->add_option(
      "--host", args->host,
      std::string("Host address (") + kHostAddressForms + "); default $CONDUIT_HOST. A named host "
      "that cannot be used (unreachable, malformed, wrong token) is an error and the program does "
      "not run. With neither, the local default socket, else a private host for the program.");
  cmd->add_flag("--private-host", args->private_host,
                "Always start a private host for the program, even when one is reachable")
      ->excludes(host);
  cmd->add_option("--capture", args->capture,
                  "Capture the program's session into FILE for `conduit replay` (a private host serves it; "
                  "further sessions of the program go to FILE.2, FILE.3, ...)")
      ->type_name("FILE")
      ->excludes(host);
  // Everything from the program name on is the program's, options included.
  cmd->add_option("command", args->command, "The program and its arguments")->required();
  cmd->prefix_command();
  cmd->callback([status, args, cmd] {
    // After `--` CLI11 gives the program as `command` and leaves a "--"
    // marker; without it, the program's first option starts `remaining()`.
    std::vector<std::string> rest = cmd->remaining();
    if (!rest.empty() && rest.front() == "--") rest.erase(rest.begin());
    args->command.insert(args->command.end(), rest.begin(), rest.end());
    *status = run_program(*args);
  });
  return cmd;
}

}  // namespace cli
