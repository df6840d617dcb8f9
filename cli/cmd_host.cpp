#include <cstdio>

#include "commands.h"

namespace cli {

CLI::App* add_host_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("host", "not available yet");
  cmd->callback([status] {
    std::fprintf(stderr, "conduit host: not available yet\n");
    *status = 1;
  });
  return cmd;
}

}  // namespace cli
