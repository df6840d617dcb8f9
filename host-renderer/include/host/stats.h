// Counters of the command stream, per session and for the whole host.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace host {

struct Counters {
  std::atomic<uint64_t> batches{0};
  std::atomic<uint64_t> commands{0};
  std::atomic<uint64_t> wire_bytes{0};      // received, as they crossed the transport
  std::atomic<uint64_t> raw_bytes{0};       // received, after decompression
  std::atomic<uint64_t> round_trips{0};     // batches the guest waited on
  std::atomic<uint64_t> frames{0};          // frames sent
  std::atomic<uint64_t> frame_bytes{0};     // pixel bytes sent
  std::atomic<uint64_t> contexts_lost{0};
  std::atomic<uint64_t> shared_allocations{0};  // Vulkan memory imported from the shared area
  // The program cache (host-renderer/gl/program_binaries.h): glLinkProgram
  // calls, those answered by a stored binary, links and shader compiles
  // the driver ran, and compiles the cache made unnecessary.
  std::atomic<uint64_t> programs_linked{0};
  std::atomic<uint64_t> program_cache_hits{0};
  std::atomic<uint64_t> program_compiles{0};
  std::atomic<uint64_t> shader_compiles{0};
  std::atomic<uint64_t> shader_cache_hits{0};
  // Vulkan devices whose pipeline cache was seeded from the program cache,
  // and those that started empty (host-renderer/vk/pipeline_caches.h).
  std::atomic<uint64_t> vk_pipeline_cache_hits{0};
  std::atomic<uint64_t> vk_pipeline_cache_misses{0};

  void add(const Counters& other);
  void copy_from(const Counters& other);
  nlohmann::json to_json() const;

 private:
  // Applies `f(mine, theirs)` to each pair of counters, in one place.
  template <typename F>
  void each_with(const Counters& other, F f);
};

struct SessionStats {
  uint32_t id = 0;
  std::string peer;  // transport description
  uint32_t guest_pid = 0;
  Counters counters;
  // Buffers, textures, renderbuffers and surfaces the guest holds now, as
  // charged against its memory limit (not summed into the totals).
  std::atomic<uint64_t> memory_bytes{0};
};

// Totals over every session that ever ran, plus the live ones.
class StatsRegistry {
 public:
  // `id` 0 takes the next free one; a renderer process is given its id by
  // the supervisor, so ids stay unique across the host.
  std::shared_ptr<SessionStats> open_session(std::string peer, uint32_t id = 0);
  // Folds a finished session into the totals.
  void close_session(const std::shared_ptr<SessionStats>& s);

  nlohmann::json to_json() const;     // {"total":…, "memory_bytes":…, "sessions":[…]}
  // Every session's counters summed (finished and live), and what the live
  // ones hold now.
  void sum(Counters& total, uint64_t& memory_bytes, uint32_t& guest_pid) const;
  std::string summary() const;        // one line for the log

 private:
  mutable std::mutex mutex_;
  uint32_t next_id_ = 1;
  uint64_t sessions_total_ = 0;
  Counters finished_;  // of closed sessions
  std::vector<std::shared_ptr<SessionStats>> live_;
};

// One line for the log from the counters' JSON (the registry's, or the
// supervisor's, which adds its renderer processes).
std::string summarize(const nlohmann::json& stats);

}  // namespace host
