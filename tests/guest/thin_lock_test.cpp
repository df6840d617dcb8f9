// The lock a Vulkan program's commands take on their way into its one
// buffer: threads that take it never overlap, and one that finds it held
// waits until it is left.
#include "conn/thin_lock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace icd {
namespace {

TEST(ThinLock, ThreadsNeverHoldItTogether) {
  ThinLock lock;
  int inside = 0;
  int most_inside = 0;
  uint64_t count = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        std::lock_guard guard(lock);
        most_inside = std::max(most_inside, ++inside);
        ++count;
        --inside;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(count, 80000u);
  EXPECT_EQ(most_inside, 1);
}

TEST(ThinLock, AWaiterGoesOnOnceItIsLeft) {
  ThinLock lock;
  lock.lock();
  EXPECT_FALSE(lock.try_lock());
  std::atomic<bool> taken{false};
  std::thread waiter([&] {
    std::lock_guard guard(lock);
    taken = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(taken.load());
  lock.unlock();
  waiter.join();
  EXPECT_TRUE(taken.load());
  EXPECT_TRUE(lock.try_lock());
  lock.unlock();
}

}  // namespace
}  // namespace icd
