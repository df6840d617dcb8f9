#include "renderer_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "control_socket.h"
#include "renderer_environment.h"

extern char** environ;

namespace host {

using wire::Errc;
using wire::make_error;

namespace {
constexpr int kChildControlFd = 3;

wire::Result<pid_t> start_process(const std::string& exe, int child_end, const std::string& cache_folder) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 onto fd 3 clears close-on-exec there (also when it already is fd 3).
  posix_spawn_file_actions_adddup2(&actions, child_end, kChildControlFd);
  // Nothing else of the supervisor's: no terminal to read, and no descriptor
  // that something opened without close-on-exec.
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&actions, kChildControlFd + 1);
  // A session of its own: no controlling terminal, so a terminal it holds
  // as stderr cannot be typed into (TIOCSTI) and the terminal's signals
  // (^C) reach only the supervisor, which ends renderers in order.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
  const std::string fd_text = std::to_string(kChildControlFd);
  char* argv[] = {const_cast<char*>(exe.c_str()), const_cast<char*>("renderer"),
                  const_cast<char*>("--control-fd"), const_cast<char*>(fd_text.c_str()), nullptr};
  std::vector<std::string> env = renderer_environment(environ);
  set_cache_environment(env, cache_folder);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, exe.c_str(), &actions, &attr, argv, envp.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return make_error(Errc::kIo, "start renderer " + exe + ": " + strerror(rc));
  return pid;
}
}  // namespace

wire::Result<std::unique_ptr<RendererProcess>> RendererProcess::spawn(const std::string& exe,
                                                                      RendererConfig config,
                                                                      const ShaderCacheRoot* caches) {
  auto counters = SharedCounters::create();
  if (!counters) return counters.error();
  if (caches) {
    auto folder = caches->make_renderer_folder(config.identity);
    if (!folder) return folder.error();
    config.shader_cache = *folder;
  }
  // Removed with it, also when it does not start.
  struct Folder {
    std::string path;
    ~Folder() {
      if (!path.empty()) remove_cache_folder(path);
    }
  } folder{config.shader_cache};
  auto pair = control_socket_pair();
  if (!pair) return pair.error();
  auto [mine, theirs] = *pair;
  auto pid = start_process(exe, theirs, config.shader_cache);
  ::close(theirs);
  if (!pid) {
    ::close(mine);
    return pid.error();
  }
  std::unique_ptr<RendererProcess> r(new RendererProcess(*pid, mine, std::move(*counters)));
  r->cache_folder_ = std::exchange(folder.path, {});
  WIRE_TRY(send_control(mine, ControlMsg::kConfigure, to_json(config), {r->counters_->fd()}));
  return r;
}

RendererProcess::RendererProcess(pid_t pid, int control, std::unique_ptr<SharedCounters> counters)
    : pid_(pid),
      pidfd_(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))),
      control_(control),
      counters_(std::move(counters)) {}

RendererProcess::~RendererProcess() {
  if (status_ == -1) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status_, 0);
  }
  if (pidfd_ >= 0) ::close(pidfd_);
  ::close(control_);
  remove_cache();
}

void RendererProcess::kill() {
  if (pidfd_ >= 0) (void)::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
}

wire::Result<RendererInfo> RendererProcess::wait_ready(std::chrono::milliseconds timeout) {
  auto msg = receive_control(control_, timeout);
  if (!msg) return make_error(msg.error().code, "renderer did not start: " + msg.error().detail);
  for (int fd : msg->fds) ::close(fd);
  if (msg->type == ControlMsg::kFailed) {
    return make_error(Errc::kIo, "renderer failed: " + msg->body.value("error", std::string("?")));
  }
  if (msg->type != ControlMsg::kReady) return make_error(Errc::kBadValue, "renderer said something else");
  return info_from_json(msg->body);
}

wire::Status RendererProcess::adopt(wire::ChannelHandoff handoff, uint32_t session_id, int capture_fd) {
  nlohmann::json body = {{"kind", static_cast<uint32_t>(handoff.kind)},
                         {"description", handoff.description},
                         {"region_bytes", handoff.region_bytes},
                         {"session", session_id}};
  if (capture_fd >= 0) {
    handoff.fds.push_back(capture_fd);
    body["capture"] = true;
  }
  // The descriptors are closed here once sent: the renderer holds the only
  // copies, so its end is the guest's end.
  return send_control(control_, ControlMsg::kAdopt, body, handoff.fds);
}

wire::Status RendererProcess::give_program_cache(int fd) {
  return send_control(control_, ControlMsg::kProgramCache, nlohmann::json::object(), {fd});
}

int RendererProcess::wait_exit(const std::function<void(ControlMessage&)>& on_message) {
  for (;;) {
    auto msg = receive_control(control_, std::nullopt);
    if (!msg && msg.error().code != Errc::kBadLength && msg.error().code != Errc::kBadValue) break;
    if (msg) {
      on_message(*msg);
      for (int fd : msg->fds) ::close(fd);
    }
  }
  while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
  }
  remove_cache();
  return status_;
}

// Once the process is gone: nothing can write there any more.
void RendererProcess::remove_cache() {
  if (!cache_folder_.empty()) remove_cache_folder(std::exchange(cache_folder_, {}));
}

void RendererProcess::send_input(const nlohmann::json& event) {
  (void)send_control(control_, ControlMsg::kInput, event, {}, false);
}

void RendererProcess::stop() { ::shutdown(control_, SHUT_WR); }

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = sigabbrev_np(WTERMSIG(status));
    return std::string("killed by SIG") + (name ? name : std::to_string(WTERMSIG(status)).c_str());
  }
  return "status " + std::to_string(status);
}

bool clean_exit(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

}  // namespace host
