#include <cstdio>

#include "commands.h"

namespace cli {

CLI::App* add_info_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("info", "not available yet");
  cmd->callback([status] {
    std::fprintf(stderr, "conduit info: not available yet\n");
    *status = 1;
  });
  return cmd;
}

}  // namespace cli
