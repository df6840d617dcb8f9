#include "wire/log_line.h"

#include <cstdio>

namespace wire {

std::string format_text(const char* fmt, va_list args) {
  char text[1024];
  std::vsnprintf(text, sizeof text, fmt, args);
  std::string out(text);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string format_text(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string out = format_text(fmt, args);
  va_end(args);
  return out;
}

void write_line(const char* prefix, const std::string& text) {
  std::fprintf(stderr, "%s: %s\n", prefix, text.c_str());
}

bool RateLimiter::allow(uint64_t* suppressed) {
  std::lock_guard lock(mutex_);
  auto now = std::chrono::steady_clock::now();
  if (now - window_start_ >= period_) {
    window_start_ = now;
    in_window_ = 0;
  }
  if (in_window_ >= burst_) {
    ++dropped_;
    return false;
  }
  ++in_window_;
  *suppressed = dropped_;
  dropped_ = 0;
  return true;
}

}  // namespace wire
