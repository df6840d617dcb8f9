#include "host/row_workers.h"

namespace host {

unsigned RowWorkers::spare_threads() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores >= 8 ? 4 : cores >= 4 ? 2 : 1;
}

RowWorkers::~RowWorkers() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void RowWorkers::start() {
  for (unsigned i = 1; i < threads_; ++i) workers_.emplace_back([this, i] { work(i); });
}

void RowWorkers::share(unsigned index) {
  const uint64_t begin = uint64_t{rows_} * index / threads_;
  const uint64_t end = uint64_t{rows_} * (index + 1) / threads_;
  if (begin < end) (*part_)(static_cast<uint32_t>(begin), static_cast<uint32_t>(end));
}

void RowWorkers::run(uint32_t rows, const Part& part) {
  if (threads_ == 1 || rows < threads_) {
    part(0, rows);
    return;
  }
  if (workers_.empty()) start();
  {
    std::lock_guard lock(mu_);
    part_ = &part;
    rows_ = rows;
    unfinished_.store(threads_ - 1, std::memory_order_relaxed);
    ++generation_;
  }
  wake_.notify_all();
  share(0);
  // The other shares end in about the time ours took.
  for (unsigned left; (left = unfinished_.load(std::memory_order_acquire)) != 0;) unfinished_.wait(left);
}

void RowWorkers::work(unsigned index) {
  uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    share(index);
    if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1) unfinished_.notify_one();
  }
}

}  // namespace host
