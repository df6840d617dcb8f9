// What the RFB server lets one address do before it is a viewer
// (vnc_doors.cpp): how many wrong passwords it may send before it is turned
// away for a while. Times are passed in, so the rules are plain to test.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace comp {

class PasswordThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  // `failures` wrong passwords, each within `backoff` of the one before,
  // refuse the address for `backoff`; 0 failures: no limit.
  PasswordThrottle(unsigned failures, Clock::duration backoff) : failures_(failures), backoff_(backoff) {}

  // How much longer `address` is refused; nothing when it may try.
  std::optional<Clock::duration> refused(const std::string& address, Clock::time_point now);
  // A wrong password; true when it starts the address's back-off.
  bool failed(const std::string& address, Clock::time_point now);
  // A right password forgets the address's failures.
  void succeeded(const std::string& address);

  unsigned failures() const { return failures_; }
  Clock::duration backoff() const { return backoff_; }

  // Addresses remembered at most: what an attacker with many addresses
  // can make the server keep.
  static constexpr size_t kMaxAddresses = 4096;

 private:
  struct Record {
    unsigned failures = 0;
    Clock::time_point last;           // of the failures counted
    Clock::time_point refused_until;  // past: not refused
  };
  bool forgotten(const Record& r, Clock::time_point now) const;
  void make_room(Clock::time_point now);

  const unsigned failures_;
  const Clock::duration backoff_;
  std::mutex mutex_;
  std::unordered_map<std::string, Record> records_;
};

}  // namespace comp
