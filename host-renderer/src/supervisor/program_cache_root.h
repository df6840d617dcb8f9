// The supervisor's program cache: the folder it keeps under the cache's
// root (one per scope, shaders_cache/cache_scope.h), and a server for each
// renderer that reads and writes it there on the renderer's behalf.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "renderer_process.h"
#include "shaders_cache/cache_scope.h"
#include "shaders_cache/entry_store.h"
#include "wire/result.h"

namespace host {

class ProgramCacheRoot {
 public:
  ProgramCacheRoot(std::string root, shaders_cache::CacheScope scope, uint64_t max_bytes)
      : root_(std::move(root)), scope_(scope), max_bytes_(max_bytes) {}

  // Gives `renderer` its end of a new cache socket, for the guest
  // `identity` (a peer key), and serves the other end on the returned
  // thread until the renderer's end closes.
  wire::Result<std::thread> serve_renderer(RendererProcess& renderer, const std::string& identity);

  static constexpr uint64_t kDefaultMaxBytes = 512ull << 20;

 private:
  shaders_cache::EntryStore& store_for(const std::string& identity);

  std::string root_;
  shaders_cache::CacheScope scope_;
  uint64_t max_bytes_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<shaders_cache::EntryStore>> stores_;  // by folder
};

}  // namespace host
