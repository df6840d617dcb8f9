#include <cstdio>

#include "commands.h"

namespace cli {

CLI::App* add_run_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("run", "not available yet");
  cmd->callback([status] {
    std::fprintf(stderr, "conduit run: not available yet\n");
    *status = 1;
  });
  return cmd;
}

}  // namespace cli
