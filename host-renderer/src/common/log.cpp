#include "host/log.h"

#include <cstdarg>

namespace host {

void log_line(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const std::string text = wire::format_text(fmt, ap);
  va_end(ap);
  wire::write_line("conduit host", text);
}

RateLimiter& guest_log_limiter() {
  static RateLimiter limiter;
  return limiter;
}

}  // namespace host
