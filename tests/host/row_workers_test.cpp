// Frames copied out by several threads: every row once, whatever the count
// of rows and threads, job after job.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "host/row_workers.h"

namespace host {
namespace {

TEST(RowWorkers, EveryRowIsDoneOnceByOneOfTheThreads) {
  for (unsigned threads : {1u, 2u, 3u, 4u}) {
    RowWorkers workers(threads);
    for (uint32_t rows : {0u, 1u, 3u, 4u, 599u, 1080u}) {
      std::vector<std::atomic<int>> done(rows);
      workers.run(rows, [&](uint32_t begin, uint32_t end) {
        for (uint32_t y = begin; y < end; ++y) done[y].fetch_add(1);
      });
      for (uint32_t y = 0; y < rows; ++y) ASSERT_EQ(done[y].load(), 1) << threads << " threads, row " << y << " of " << rows;
    }
  }
}

TEST(RowWorkers, SharesRunOnSeveralThreads) {
  RowWorkers workers(3);
  std::mutex mu;
  std::set<std::thread::id> seen;
  for (int job = 0; job < 200 && seen.size() < 3; ++job) {
    workers.run(300, [&](uint32_t, uint32_t) {
      std::lock_guard lock(mu);
      seen.insert(std::this_thread::get_id());
    });
  }
  EXPECT_EQ(seen.size(), 3u);
}

}  // namespace
}  // namespace host
