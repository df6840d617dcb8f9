// Where a guest's entries live under the cache's root folder: one folder
// shared by every guest of the host (`host` scope), or one per guest
// identity (`guest` scope: a local user, a remote address, a ring file),
// named by a hash of the identity so that no identity picks the path.
#pragma once

#include <optional>
#include <string>

namespace shaders_cache {

enum class CacheScope { kHost, kGuest };

std::optional<CacheScope> parse_scope(const std::string& text);
// The folder under `root` that holds the scopes' folders.
std::string programs_folder(const std::string& root);
std::string scope_folder(const std::string& root, CacheScope scope, const std::string& guest_identity);
// $XDG_CACHE_HOME/conduit, else ~/.cache/conduit; empty when neither is known.
std::string default_cache_root();

}  // namespace shaders_cache
