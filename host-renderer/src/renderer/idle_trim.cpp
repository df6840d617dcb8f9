#include "idle_trim.h"

#include <malloc.h>

namespace host {

bool IdleTrim::observe(uint64_t activity, Clock::time_point now) {
  if (activity != last_) {
    last_ = activity;
    since_ = now;
    trimmed_ = false;
    return false;
  }
  if (trimmed_ || now - since_ < kQuietBeforeTrim) return false;
  trimmed_ = true;
  ::malloc_trim(0);
  return true;
}

}  // namespace host
