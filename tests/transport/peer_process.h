// Helpers for tests that put the two ends of a transport in separate processes.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace wire::testing {

inline int64_t monotonic_us() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000 + ts.tv_nsec / 1000;
}

// Runs `body` in a child process; its return value is the exit status.
inline pid_t fork_peer(const std::function<int()>& body) {
  pid_t pid = fork();
  if (pid == 0) _exit(body());
  return pid;
}

// Exit status of a child, or -signal when it was killed.
inline int wait_peer(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1000;
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status);
}

// Deterministic message contents: the same (seed, index) always gives the
// same bytes, so each side can check what the other sent without sharing it.
inline void fill_pattern(std::span<std::byte> out, uint64_t seed) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  size_t i = 0;
  for (; i + 8 <= out.size(); i += 8) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    std::memcpy(out.data() + i, &x, 8);
  }
  for (; i < out.size(); ++i) out[i] = static_cast<std::byte>(x >> (8 * (i % 8)));
}

inline bool matches_pattern(std::span<const std::byte> got, uint64_t seed) {
  std::vector<std::byte> want(got.size());
  fill_pattern(want, seed);
  return got.empty() || std::memcmp(want.data(), got.data(), got.size()) == 0;
}

// A pipe for passing small values (readiness, timestamps) between processes.
class Pipe {
 public:
  Pipe() {
    if (::pipe(fds_) != 0) fds_[0] = fds_[1] = -1;
  }
  ~Pipe() {
    for (int fd : fds_)
      if (fd >= 0) ::close(fd);
  }
  template <typename T>
  void put(T v) {
    (void)!::write(fds_[1], &v, sizeof v);
  }
  template <typename T>
  bool get(T* v) {
    return ::read(fds_[0], v, sizeof *v) == static_cast<ssize_t>(sizeof *v);
  }

 private:
  int fds_[2];
};

}  // namespace wire::testing
