#include <cstdio>

#include "commands.h"

namespace cli {

CLI::App* add_bench_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("bench", "not available yet");
  cmd->callback([status] {
    std::fprintf(stderr, "conduit bench: not available yet\n");
    *status = 1;
  });
  return cmd;
}

}  // namespace cli
