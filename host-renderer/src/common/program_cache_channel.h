// The program cache between a renderer and its supervisor. Renderers are
// confined and never open the cache's folder: the supervisor reads and
// writes it for them, over a socket pair of their own that it hands each
// renderer with its guest. A payload travels in a memfd, read once by its
// receiver; neither side trusts what the other sends (keys are checked,
// payloads are bounded, and the renderer checks every entry it loads).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shaders_cache {
class EntryStore;
}

namespace host {

// A renderer's end: its sessions' threads may share it.
class ProgramCacheClient {
 public:
  explicit ProgramCacheClient(int fd) : fd_(fd) {}  // takes `fd`
  ~ProgramCacheClient();
  ProgramCacheClient(const ProgramCacheClient&) = delete;
  ProgramCacheClient& operator=(const ProgramCacheClient&) = delete;

  // The entry under `key`, or none (missing, or the supervisor did not
  // answer in time: a miss is always safe).
  std::optional<std::vector<std::byte>> get(const std::string& key);
  // Hands an entry to the supervisor to keep; never waits for it.
  void put(const std::string& key, std::span<const std::byte> payload);

 private:
  int fd_;
  std::mutex mutex_;  // one request and its answer at a time
};

// The supervisor's end: answers one renderer's requests from `store` until
// the renderer's end closes. Takes `fd`.
void serve_program_cache(int fd, shaders_cache::EntryStore& store);

}  // namespace host
