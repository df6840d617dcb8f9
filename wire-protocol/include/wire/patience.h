// How long a waiter keeps looking before it sleeps. Waking a sleeping
// thread costs tens of microseconds, which a round trip to a GPU host pays
// every frame; where cores are to spare, a waiter whose waits lately ended
// within a millisecond keeps looking (yielding) about that long instead.
// CONDUIT_PATIENCE=0 or 1 overrides the choice (a host shared with other
// work may want its cores back; a benchmark compares both).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace wire {

class Patience {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr auto kLongest = std::chrono::microseconds(1000);

  // CONDUIT_PATIENCE when set, else four cores or more: on fewer, the
  // thread waited for needs the core.
  static bool wanted() {
    if (const char* set = std::getenv("CONDUIT_PATIENCE"); set && *set) return std::strcmp(set, "0") != 0;
    return std::thread::hardware_concurrency() >= 4;
  }

  // Half as long again as waits lately lasted, within kLongest; zero for
  // long waits.
  static Clock::duration look_on(Clock::duration typical) {
    if (typical >= kLongest) return Clock::duration::zero();
    return std::min<Clock::duration>(typical + typical / 2, kLongest);
  }
  // A smoothed wait length, given the last one.
  static Clock::duration smoothed(Clock::duration typical, Clock::duration last) { return (typical * 3 + last) / 4; }
};

}  // namespace wire
