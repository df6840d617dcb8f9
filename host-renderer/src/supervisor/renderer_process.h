// The supervisor's handle on one renderer process: starting it, handing it
// channels, and learning how it ended.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "control_socket.h"
#include "counters_page.h"
#include "host/egl_display.h"
#include "renderer_config.h"
#include "shader_cache.h"
#include "wire/handoff.h"

namespace host {

class RendererProcess {
 public:
  // Starts `exe renderer --control-fd 3` and sends it its configuration.
  // With `caches`, it gets a shader cache folder of its own there, removed
  // with this object; without, drivers' disk caches are off.
  static wire::Result<std::unique_ptr<RendererProcess>> spawn(const std::string& exe, RendererConfig config,
                                                              const ShaderCacheRoot* caches);
  // Stops the process if it still runs, and reaps it.
  ~RendererProcess();
  RendererProcess(const RendererProcess&) = delete;
  RendererProcess& operator=(const RendererProcess&) = delete;

  // Waits until its display is open and it is confined.
  wire::Result<RendererInfo> wait_ready(std::chrono::milliseconds timeout);
  // `capture_fd` (-1: none): the session's capture file, given away.
  wire::Status adopt(wire::ChannelHandoff handoff, uint32_t session_id, int capture_fd = -1);
  // Its end of the program cache's socket (a copy is sent), before adopt().
  wire::Status give_program_cache(int fd);
  // Blocks until the renderer has ended (its control socket hung up and the
  // process was reaped; its shader cache folder is removed), giving what it says meanwhile to `on_message`
  // (which takes the descriptors it keeps); returns its wait status.
  int wait_exit(const std::function<void(ControlMessage&)>& on_message);
  // A viewer's event for one of its sessions; dropped when the renderer is
  // not reading (a viewer never waits for a guest).
  void send_input(const nlohmann::json& event);
  // Asks it to end its sessions and exit (closes the control socket's writing side).
  void stop();
  // Ends it at once (SIGKILL), also once it is reaped: the signal goes
  // through a pidfd, never to a process that took its number since.
  void kill();

  pid_t pid() const { return pid_; }
  CountersPage& counters() { return counters_->page(); }

 private:
  RendererProcess(pid_t pid, int control, std::unique_ptr<SharedCounters> counters);
  void remove_cache();

  pid_t pid_;
  int pidfd_;  // -1 where the kernel has no pidfds (before Linux 5.3)
  int control_;
  std::unique_ptr<SharedCounters> counters_;
  std::string cache_folder_;  // removed once the process is reaped
  int status_ = -1;  // once reaped
};

// "exit 0", "killed by SIGSEGV", ...
std::string describe_exit(int status);
// Whether a renderer ended the way renderers should (all sessions over).
bool clean_exit(int status);

}  // namespace host
