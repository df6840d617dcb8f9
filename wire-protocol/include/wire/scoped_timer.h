// Adds the time from its making to its end to a running total: plain
// nanoseconds for one thread's counters, an atomic count of nanoseconds
// for counters other threads read.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace wire {

template <typename Total>
class ScopedTimer {
 public:
  explicit ScopedTimer(Total& total) : total_(total) {}
  ~ScopedTimer() { add(total_, std::chrono::steady_clock::now() - begun_); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  static void add(std::chrono::nanoseconds& total, std::chrono::steady_clock::duration spent) { total += spent; }
  static void add(std::atomic<uint64_t>& total, std::chrono::steady_clock::duration spent) {
    total.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(spent).count(), std::memory_order_relaxed);
  }

  Total& total_;
  const std::chrono::steady_clock::time_point begun_ = std::chrono::steady_clock::now();
};

}  // namespace wire
