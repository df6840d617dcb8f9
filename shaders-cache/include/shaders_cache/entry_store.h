// A folder of cache entries named by content key (ContentHash::hex()).
// Each file holds a header (magic, format, payload size) and a checksum of
// its key and payload: a file truncated, corrupted, written by another
// format or copied under another key reads as a miss and is removed.
// Writes go to a temporary file renamed into place, so that a reader (in
// this process or another) sees a whole entry or none. Past `max_bytes`
// the entries used longest ago (by modification time, which a hit renews)
// are removed. Safe to use from several threads.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shaders_cache {

struct StoreStats {
  uint64_t entries = 0;
  uint64_t bytes = 0;  // on disk, headers included
};

class EntryStore {
 public:
  // `folder` is made (0700, with its parents) when missing.
  EntryStore(std::string folder, uint64_t max_bytes);

  const std::string& folder() const { return folder_; }
  // The payload stored under `key`, or none (missing, damaged, or `key`
  // no content key).
  std::optional<std::vector<std::byte>> get(std::string_view key);
  // Stores `payload` under `key`, then trims the folder to the size cap;
  // false when it could not (bad key, too large, disk).
  bool put(std::string_view key, std::span<const std::byte> payload);
  StoreStats stats() const;
  // Removes every entry and leftover temporary file; how many went.
  uint64_t clear();

  // Largest payload kept: an entry above it is refused, and one read back
  // above it is damaged.
  static constexpr uint64_t kMaxPayload = 64ull << 20;

 private:
  bool ensure_folder() const;
  void evict();

  std::string folder_;
  uint64_t max_bytes_;
  std::mutex mutex_;  // one trim at a time
};

// Every entry folder under `root` (one per cache scope), for `conduit cache`.
std::vector<std::string> scope_folders(const std::string& root);

}  // namespace shaders_cache
