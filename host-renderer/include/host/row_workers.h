// Runs a job over a frame's rows on a few threads at once: copying a
// read-back frame out is bound by one core's memory bandwidth, which a
// GPU host has several times over. One thread (the caller alone) where
// cores are scarce.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace host {

class RowWorkers {
 public:
  // `threads` counts the caller; the others start on first use.
  explicit RowWorkers(unsigned threads) : threads_(threads < 1 ? 1 : threads) {}
  ~RowWorkers();
  RowWorkers(const RowWorkers&) = delete;
  RowWorkers& operator=(const RowWorkers&) = delete;

  // As many threads as the machine spares for copying frames: four from
  // eight cores up, two from four, else the caller alone.
  static unsigned spare_threads();

  // Calls `part(begin, end)` over [0, rows) in contiguous shares, one per
  // thread, and returns when every share is done.
  using Part = std::function<void(uint32_t begin, uint32_t end)>;
  void run(uint32_t rows, const Part& part);

  unsigned threads() const { return threads_; }

 private:
  void start();
  void work(unsigned index);
  void share(unsigned index);

  const unsigned threads_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;
  uint64_t generation_ = 0;  // of the job now given out; under mu_
  bool stopping_ = false;
  const Part* part_ = nullptr;
  uint32_t rows_ = 0;
  std::atomic<unsigned> unfinished_{0};
};

}  // namespace host
