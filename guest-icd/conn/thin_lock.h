// A lock for a path taken millions of times a second while nobody else
// wants it (a Vulkan program's commands, each put into the program's one
// buffer): taking and leaving it free costs one atomic exchange and a
// store, where a mutex costs two library calls and two atomic operations.
// A thread that finds it held sleeps until it is left (C++20 atomic waits).
#pragma once

#include <atomic>

namespace icd {

class ThinLock {
 public:
  void lock() {
    while (held_.exchange(true, std::memory_order_acquire)) held_.wait(true, std::memory_order_relaxed);
  }
  bool try_lock() { return !held_.exchange(true, std::memory_order_acquire); }
  void unlock() {
    held_.store(false, std::memory_order_release);
    held_.notify_one();
  }

 private:
  std::atomic<bool> held_{false};
};

}  // namespace icd
