// Host log lines on stderr ("conduit host: ..."). Lines a guest can cause go
// through a RateLimiter (wire/log_line.h, shared with the viewers).
#pragma once

#include "wire/log_line.h"

namespace host {

// printf-style line to stderr with a "conduit host: " prefix.
void log_line(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

using wire::RateLimiter;

// The limiter shared by every session for guest-caused lines.
RateLimiter& guest_log_limiter();

}  // namespace host
