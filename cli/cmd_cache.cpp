// `conduit cache stats|clear`: the persistent program cache a host keeps
// (shaders-cache/), read or emptied from outside the host.
#include <cstdio>
#include <string>

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
  uint64_t entries = 0, bytes = 0;
  std::string scopes;
  for (const auto& folder : shaders_cache::scope_folders(programs)) {
    const auto s = shaders_cache::EntryStore(folder, 0).stats();
    entries += s.entries;
    bytes += s.bytes;
    const std::string name = folder.substr(programs.size() + 1);
    if (a.json) {
      scopes += std::string(scopes.empty() ? "" : ",") + "{\"scope\":\"" + name +
                "\",\"entries\":" + std::to_string(s.entries) + ",\"bytes\":" + std::to_string(s.bytes) + "}";
    } else {
      std::printf("  %-40s %8llu entries %12llu bytes\n", name.c_str(), static_cast<unsigned long long>(s.entries),
                  static_cast<unsigned long long>(s.bytes));
    }
  }
  if (a.json) {
    std::printf("{\"folder\":\"%s\",\"entries\":%llu,\"bytes\":%llu,\"scopes\":[%s]}\n", programs.c_str(),
                static_cast<unsigned long long>(entries), static_cast<unsigned long long>(bytes), scopes.c_str());
  } else {
    std::printf("%s: %llu entries, %llu bytes\n", programs.c_str(), static_cast<unsigned long long>(entries),
                static_cast<unsigned long long>(bytes));
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
