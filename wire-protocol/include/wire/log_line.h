// Lines for a person on stderr, written the same way by the host, its
// renderers and its viewers: printf-style text without the trailing newlines
// libraries end theirs with, one write a line (lines of different sessions do
// not interleave), and a budget for lines that others (guests, viewers)
// decide how often happen.
#pragma once

#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <mutex>
#include <string>

namespace wire {

// printf-style text, trailing newlines removed.
std::string format_text(const char* fmt, va_list args);
std::string format_text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// "PREFIX: TEXT\n" on stderr in one write.
void write_line(const char* prefix, const std::string& text);

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

}  // namespace wire
