// Host log lines on stderr. Lines a guest can cause go through a RateLimiter.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

namespace host {

// printf-style line to stderr with a "conduit host: " prefix.
void log_line(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Lets `burst` lines through per `period`; counts what it held back.
class RateLimiter {
 public:
  explicit RateLimiter(uint32_t burst = 20, std::chrono::milliseconds period = std::chrono::seconds(1))
      : burst_(burst), period_(period) {}
  // True when a line may be written now; `suppressed` gets how many were
  // dropped since the last line that went through.
  bool allow(uint64_t* suppressed);

 private:
  std::mutex mutex_;
  uint32_t burst_;
  std::chrono::milliseconds period_;
  std::chrono::steady_clock::time_point window_start_{};
  uint32_t in_window_ = 0;
  uint64_t dropped_ = 0;
};

// The limiter shared by every session for guest-caused lines.
RateLimiter& guest_log_limiter();

}  // namespace host
