// A renderer's guests gone quiet give back what the allocator kept: after a
// burst of batches glibc holds the freed pages of its arenas (one per
// session thread) for the next burst, which an idle guest may never send.
#pragma once

#include <chrono>
#include <cstdint>

namespace host {

class IdleTrim {
 public:
  using Clock = std::chrono::steady_clock;
  // Quiet this long, the renderer trims once until its guests speak again.
  static constexpr auto kQuietBeforeTrim = std::chrono::seconds(2);

  // `activity`: a count that grows while the guests are busy (batches
  // received). Returns whether it trimmed now.
  bool observe(uint64_t activity, Clock::time_point now);

 private:
  uint64_t last_ = 0;
  Clock::time_point since_ = Clock::now();
  bool trimmed_ = false;
};

}  // namespace host
