// Counters for CONDUIT_STATS=1, printed when the process exits.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace icd {

struct Stats {
  std::atomic<uint64_t> batches{0};
  std::atomic<uint64_t> commands{0};
  std::atomic<uint64_t> raw_bytes{0};
  std::atomic<uint64_t> wire_bytes{0};
  std::atomic<uint64_t> round_trips{0};  // synchronous waits for a reply
  // Of them, waits the host's word ended before the reply came (a fence
  // told signalled after an earlier batch).
  std::atomic<uint64_t> ended_before_reply{0};
  std::atomic<uint64_t> swaps{0};
  std::atomic<uint64_t> frames{0};  // frames presented
  std::atomic<uint64_t> frames_in_place{0};  // of them, put from the host's heap without a copy
  // Swaps since whose previous swap the application waited for the host:
  // zero in steady state when every query is answered guest-side.
  std::atomic<uint64_t> swaps_with_round_trips{0};
  // Vulkan allocations placed in the shared area (mapped by both sides).
  std::atomic<uint64_t> shared_allocations{0};
  // Where the guest's frame time went, in nanoseconds: putting frames into
  // windows, swaps waiting for frames to come back, and swaps asking the
  // window's size.
  std::atomic<uint64_t> present_ns{0};
  std::atomic<uint64_t> swap_wait_ns{0};
  std::atomic<uint64_t> size_poll_ns{0};

  void print(std::FILE* out) const;
};

// Adds the nanoseconds from its making to its end to `total`.
class TimedNs {
 public:
  explicit TimedNs(std::atomic<uint64_t>& total) : total_(total) {}
  ~TimedNs() {
    const auto spent = std::chrono::steady_clock::now() - begun_;
    total_.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(spent).count(), std::memory_order_relaxed);
  }
  TimedNs(const TimedNs&) = delete;
  TimedNs& operator=(const TimedNs&) = delete;

 private:
  std::atomic<uint64_t>& total_;
  std::chrono::steady_clock::time_point begun_ = std::chrono::steady_clock::now();
};

// True when CONDUIT_STATS asks for the summary.
bool stats_enabled();

}  // namespace icd
