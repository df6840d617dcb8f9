// A renderer's counters in memory shared with the supervisor, which reads
// them for `conduit info --stats` and keeps them when the renderer ends,
// however it ended. Only lock-free atomics: a page the renderer may have
// scribbled over is still just numbers to the supervisor.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "host/stats.h"
#include "wire/result.h"

namespace host {

struct CountersPage {
  Counters counters;                      // of every session the renderer ran
  std::atomic<uint64_t> memory_bytes{0};  // held now against --max-guest-memory
  std::atomic<uint32_t> guest_pid{0};
  std::atomic<uint64_t> heartbeat{0};  // counted up by the renderer's main loop, for the watchdog
  // CLOCK_MONOTONIC milliseconds at which its session began what it is
  // doing now for its guest (a batch, frames, its teardown); 0 while it
  // waits for its guest. A stuck driver call shows here while the main
  // loop still beats.
  std::atomic<uint64_t> busy_since_ms{0};
};
static_assert(std::atomic<uint64_t>::is_always_lock_free);

class SharedCounters {
 public:
  // A new page (supervisor side) or the one passed in `fd` (renderer side).
  static wire::Result<std::unique_ptr<SharedCounters>> create();
  static wire::Result<std::unique_ptr<SharedCounters>> map(int fd);
  ~SharedCounters();
  SharedCounters(const SharedCounters&) = delete;
  SharedCounters& operator=(const SharedCounters&) = delete;

  CountersPage& page() { return *page_; }
  int fd() const { return fd_; }

 private:
  SharedCounters(int fd, CountersPage* page) : fd_(fd), page_(page) {}
  int fd_;
  CountersPage* page_;
};

}  // namespace host
