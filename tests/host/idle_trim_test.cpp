// A renderer whose guests went quiet gives back the heap pages its session
// threads freed (src/renderer/idle_trim.h): once per quiet spell, after a
// while.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "../sanitizers.h"
#include "host/memory_budget.h"
#include "src/renderer/idle_trim.h"

namespace hosttest {
namespace {

using Clock = host::IdleTrim::Clock;
constexpr uint64_t kMiB = 1u << 20;

TEST(IdleTrim, TrimsOnceAfterAQuietSpell) {
  host::IdleTrim trim;
  const Clock::time_point t0 = Clock::now();
  EXPECT_FALSE(trim.observe(5, t0)) << "busy";
  EXPECT_FALSE(trim.observe(5, t0 + host::IdleTrim::kQuietBeforeTrim / 2)) << "not quiet long enough";
  EXPECT_TRUE(trim.observe(5, t0 + host::IdleTrim::kQuietBeforeTrim));
  EXPECT_FALSE(trim.observe(5, t0 + 10 * host::IdleTrim::kQuietBeforeTrim)) << "once per quiet spell";
  const Clock::time_point t1 = t0 + 20 * host::IdleTrim::kQuietBeforeTrim;
  EXPECT_FALSE(trim.observe(6, t1)) << "busy again";
  EXPECT_TRUE(trim.observe(6, t1 + host::IdleTrim::kQuietBeforeTrim));
}

// Small blocks freed on a thread of their own (as a session's batches are)
// stay with the allocator, pinned by the few still held, until the trim.
TEST(IdleTrim, GivesFreedHeapPagesBack) {
  std::vector<std::unique_ptr<char[]>> kept;
  std::thread session([&] {
    constexpr size_t kBlock = 16 * 1024;  // below the allocator's mmap threshold
    std::vector<std::unique_ptr<char[]>> blocks;
    for (size_t i = 0; i < 128 * kMiB / kBlock; ++i) {
      blocks.push_back(std::make_unique<char[]>(kBlock));
      blocks.back()[0] = 1;
    }
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (i % 512 == 511) kept.push_back(std::move(blocks[i]));
    }
  });
  session.join();
#ifdef CONDUIT_UNDER_ASAN
  GTEST_SKIP() << "ASan's allocator keeps freed blocks in its quarantine, not the C library's heap";
#endif
  const uint64_t before = host::process_memory_bytes(getpid());
  host::IdleTrim trim;
  const Clock::time_point t0 = Clock::now();
  trim.observe(1, t0);
  ASSERT_TRUE(trim.observe(1, t0 + host::IdleTrim::kQuietBeforeTrim));
  EXPECT_LT(host::process_memory_bytes(getpid()), before - 64 * kMiB);
}

}  // namespace
}  // namespace hosttest
