// `conduit cache stats|clear`: the persistent program cache a host keeps
// (shaders-cache/), read or emptied from outside the host.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "shaders_cache/cache_scope.h"
#include "shaders_cache/entry_store.h"

namespace cli {
namespace {

struct CacheArgs {
  std::string folder = "auto";
  bool json = false;
};

std::string root_of(const CacheArgs& a) {
  return a.folder == "auto" ? shaders_cache::default_cache_root() : a.folder;
}

int show_stats(const CacheArgs& a) {
  const std::string root = root_of(a);
  if (root.empty()) {
    std::fprintf(stderr, "conduit cache: no cache folder (set XDG_CACHE_HOME or HOME, or --program-cache)\n");
    return 2;
  }
  const std::string programs = shaders_cache::programs_folder(root);
  nlohmann::json out = {{"folder", programs}, {"entries", 0}, {"bytes", 0}, {"scopes", nlohmann::json::array()}};
  for (const auto& folder : shaders_cache::scope_folders(programs)) {
    const auto s = shaders_cache::EntryStore(folder, 0).stats();
    out["entries"] = out["entries"].get<uint64_t>() + s.entries;
    out["bytes"] = out["bytes"].get<uint64_t>() + s.bytes;
    out["scopes"].push_back({{"scope", folder.substr(programs.size() + 1)}, {"entries", s.entries}, {"bytes", s.bytes}});
  }
  if (a.json) {
    std::printf("%s\n", out.dump().c_str());
    return 0;
  }
  std::printf("%s: %llu entries, %llu bytes\n", programs.c_str(),
              static_cast<unsigned long long>(out["entries"].get<uint64_t>()),
              static_cast<unsigned long long>(out["bytes"].get<uint64_t>()));
  for (const auto& scope : out["scopes"]) {
    std::printf("  %-40s %8llu entries %12llu bytes\n", scope["scope"].get<std::string>().c_str(),
                static_cast<unsigned long long>(scope["entries"].get<uint64_t>()),
                static_cast<unsigned long long>(scope["bytes"].get<uint64_t>()));
  }
  return 0;
}

int clear_all(const CacheArgs& a) {
  const std::string root = root_of(a);
  if (root.empty()) {
    std::fprintf(stderr, "conduit cache: no cache folder (set XDG_CACHE_HOME or HOME, or --program-cache)\n");
    return 2;
  }
  uint64_t removed = 0;
  for (const auto& folder : shaders_cache::scope_folders(shaders_cache::programs_folder(root)))
    removed += shaders_cache::EntryStore(folder, 0).clear();
  std::printf("removed %llu entries\n", static_cast<unsigned long long>(removed));
  return 0;
}

}  // namespace

CLI::App* add_cache_command(CLI::App& app, int* status) {
  auto args = std::make_shared<CacheArgs>();
  auto* cmd = app.add_subcommand("cache", "Show or empty the persistent program cache");
  cmd->require_subcommand(1);
  auto folder_option = [args](CLI::App* sub) {
    sub->add_option("--program-cache", args->folder, "The cache folder `conduit host --program-cache` was given")
        ->type_name("DIR|auto")
        ->capture_default_str();
  };
  auto* stats = cmd->add_subcommand("stats", "Entries and bytes held, per scope");
  folder_option(stats);
  stats->add_flag("--json", args->json, "One JSON object");
  stats->callback([args, status] { *status = show_stats(*args); });
  auto* clear = cmd->add_subcommand("clear", "Remove every entry (safe while a host runs: it then misses)");
  folder_option(clear);
  clear->callback([args, status] { *status = clear_all(*args); });
  return cmd;
}

}  // namespace cli
