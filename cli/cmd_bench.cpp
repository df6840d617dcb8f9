// `conduit bench`: hands its arguments to the glmark2 harness in demos/bench.
// The harness is Python; this command only finds it and runs it with the
// system interpreter, passing its own path so the conduit mode runs this build.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.h"

namespace cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPython = "/usr/bin/python3";
constexpr const char* kHarness = "conduit_bench.py";

// Build tree: <build>/cli/conduit next to <build>/demos/bench (a link to the
// sources). Installed: <prefix>/bin/conduit next to <prefix>/share/conduit/bench.
fs::path find_harness(const fs::path& exe) {
  const fs::path base = exe.parent_path().parent_path();
  for (const fs::path& dir : {base / "demos" / "bench", base / "share" / "conduit" / "bench"}) {
    std::error_code ec;
    if (fs::is_regular_file(dir / kHarness, ec)) return dir / kHarness;
  }
  return {};
}

int run_bench(const std::vector<std::string>& args) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::fprintf(stderr, "conduit bench: cannot find own executable: %s\n", ec.message().c_str());
    return 1;
  }
  const fs::path harness = find_harness(exe);
  if (harness.empty()) {
    std::fprintf(stderr, "conduit bench: %s not found beside %s\n", kHarness, exe.c_str());
    return 1;
  }
  std::vector<std::string> argv{kPython, harness.string(), "--conduit", exe.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c_argv;
  for (std::string& arg : argv) c_argv.push_back(arg.data());
  c_argv.push_back(nullptr);
  std::fflush(nullptr);
  execv(kPython, c_argv.data());
  std::fprintf(stderr, "conduit bench: cannot run %s: %s\n", kPython, std::strerror(errno));
  return 1;
}

}  // namespace

CLI::App* add_bench_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand(
      "bench", "glmark2 regression runs: native vs virgl vs Conduit (--help for options)");
  // Every argument, --help included, belongs to the harness.
  cmd->set_help_flag();
  cmd->prefix_command();
  cmd->callback([cmd, status] { *status = run_bench(cmd->remaining()); });
  return cmd;
}

}  // namespace cli
