// What a scene's run cost: wall time, this process's CPU time, and how busy
// the machine's CPUs were (glmark2's "cpu" results).
#pragma once

#include <chrono>
#include <cstdint>

namespace vkbench {

struct Costs {
  double wall_s = 0;
  double user_s = 0;
  double system_s = 0;
  double busy_pct = 0;  // of all CPUs, from /proc/stat; 0 where unreadable
};

class Measurement {
 public:
  Measurement();  // starts measuring
  double elapsed_s() const;
  Costs finish() const;

 private:
  std::chrono::steady_clock::time_point start_;
  double user_s_ = 0;
  double system_s_ = 0;
  uint64_t busy_ticks_ = 0;
  uint64_t total_ticks_ = 0;
};

}  // namespace vkbench
