// Wrong VNC passwords counted per address, so that guessing one takes
// back-offs rather than round trips.
#include "vnc_doors.h"

namespace comp {

std::optional<PasswordThrottle::Clock::duration> PasswordThrottle::refused(const std::string& address,
                                                                         Clock::time_point now) {
  std::lock_guard lock(mutex_);
  const auto it = records_.find(address);
  if (it == records_.end() || now >= it->second.refused_until) return std::nullopt;
  return it->second.refused_until - now;
}

bool PasswordThrottle::failed(const std::string& address, Clock::time_point now) {
  if (failures_ == 0) return false;
  std::lock_guard lock(mutex_);
  if (!records_.contains(address)) make_room(now);
  Record& r = records_[address];
  if (now - r.last > backoff_) r.failures = 0;
  r.last = now;
  if (++r.failures < failures_) return false;
  r.failures = 0;
  r.refused_until = now + backoff_;
  return true;
}

void PasswordThrottle::succeeded(const std::string& address) {
  std::lock_guard lock(mutex_);
  records_.erase(address);
}

bool PasswordThrottle::forgotten(const Record& r, Clock::time_point now) const {
  return now >= r.refused_until && (r.failures == 0 || now - r.last > backoff_);
}

// Drops what no longer counts; when every record still counts, the one
// heard from longest ago (a refused address stays refused).
void PasswordThrottle::make_room(Clock::time_point now) {
  if (records_.size() < kMaxAddresses) return;
  std::erase_if(records_, [&](const auto& entry) { return forgotten(entry.second, now); });
  if (records_.size() < kMaxAddresses) return;
  auto oldest = records_.end();
  for (auto it = records_.begin(); it != records_.end(); ++it) {
    if (now < it->second.refused_until) continue;
    if (oldest == records_.end() || it->second.last < oldest->second.last) oldest = it;
  }
  records_.erase(oldest != records_.end() ? oldest : records_.begin());
}

}  // namespace comp
