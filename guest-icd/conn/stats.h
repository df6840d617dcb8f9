// Counters for CONDUIT_STATS=1, printed when the process exits.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>

#include "wire/scoped_timer.h"

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

// Times a stage into one of the counters above.
using TimedNs = wire::ScopedTimer<std::atomic<uint64_t>>;

// True when CONDUIT_STATS asks for the summary.
bool stats_enabled();

}  // namespace icd
