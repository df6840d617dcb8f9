// `conduit`: the host daemon, the program launcher, benchmarks and queries.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Conduit: GPU-accelerated OpenGL, OpenGL ES and Vulkan for virtual machines "
               "by forwarding API calls to a host renderer."};
  app.require_subcommand(1);
  int status = 0;
  cli::add_host_command(app, &status);
  cli::add_info_command(app, &status);
  cli::add_run_command(app, &status);
  cli::add_bench_command(app, &status);
  cli::add_renderer_command(app, &status);
  cli::add_view_command(app, &status);
  cli::add_cache_command(app, &status);
  cli::add_replay_command(app, &status);
  CLI11_PARSE(app, argc, argv);
  return status;
}
