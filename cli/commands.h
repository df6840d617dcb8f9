// Each `conduit` subcommand lives in its own file and registers itself here.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace cli {

// The address forms a guest connects with, for --host help texts.
inline constexpr const char* kHostAddressForms =
    "unix:PATH, tcp:HOST:PORT, shm:PATH, shm:file=PATH, or in a QEMU guest ivshmem:auto|BDF";

// `--token-file FILE` of a command: the token it holds into `*token`, or
// false after telling why on stderr (the file is refused when others may
// read it). An empty FILE leaves `*token` as it is.
bool read_token_option(const char* command, const std::string& file, std::string* token);

// Each returns the subcommand it added; its callback runs the command and
// stores the exit status in `*status`.
CLI::App* add_host_command(CLI::App& app, int* status);
CLI::App* add_info_command(CLI::App& app, int* status);
CLI::App* add_run_command(CLI::App& app, int* status);
CLI::App* add_bench_command(CLI::App& app, int* status);
CLI::App* add_renderer_command(CLI::App& app, int* status);
CLI::App* add_view_command(CLI::App& app, int* status);
CLI::App* add_cache_command(CLI::App& app, int* status);
CLI::App* add_replay_command(CLI::App& app, int* status);

}  // namespace cli
