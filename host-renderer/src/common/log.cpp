#include "host/log.h"

#include <cstdarg>
#include <cstdio>

namespace host {

void log_line(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  // One fprintf per line so lines of different sessions do not interleave.
  std::fprintf(stderr, "conduit host: %s\n", buf);
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

RateLimiter& guest_log_limiter() {
  static RateLimiter limiter;
  return limiter;
}

}  // namespace host
