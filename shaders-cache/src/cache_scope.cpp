#include "shaders_cache/cache_scope.h"

#include <cstdlib>

#include "shaders_cache/content_hash.h"

namespace shaders_cache {

std::optional<CacheScope> parse_scope(const std::string& text) {
  if (text == "host") return CacheScope::kHost;
  if (text == "guest") return CacheScope::kGuest;
  return std::nullopt;
}

std::string programs_folder(const std::string& root) { return root + "/programs"; }

std::string scope_folder(const std::string& root, CacheScope scope, const std::string& guest_identity) {
  if (scope == CacheScope::kHost) return programs_folder(root) + "/host";
  return programs_folder(root) + "/guest-" + ContentHash().add(guest_identity).hex().substr(0, 32);
}

std::string default_cache_root() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/conduit";
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return std::string(home) + "/.cache/conduit";
  return {};
}

}  // namespace shaders_cache
