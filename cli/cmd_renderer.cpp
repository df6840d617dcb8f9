// `conduit renderer`: started by `conduit host` only, one per guest program
// (docs/host-processes.md). Hidden from --help.
#include <csignal>

#include "commands.h"
#include "host/renderer.h"

namespace cli {

CLI::App* add_renderer_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("renderer", "Serve one guest program for `conduit host`");
  cmd->group("");  // not for people to run
  auto fd = std::make_shared<int>(-1);
  cmd->add_option("--control-fd", *fd, "The supervisor's control socket")->required();
  cmd->callback([status, fd] {
    // Interrupts from a terminal go to the supervisor, which ends renderers
    // through their control sockets, after their guests' sessions.
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGPIPE, SIG_IGN);
    *status = host::run_renderer(*fd);
  });
  return cmd;
}

}  // namespace cli
