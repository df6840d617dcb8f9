#include "measure.h"

#include <sys/resource.h>

#include <cstdio>

namespace vkbench {
namespace {

double seconds(const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) * 1e-6; }

void process_cpu(double* user_s, double* system_s) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  *user_s = seconds(usage.ru_utime);
  *system_s = seconds(usage.ru_stime);
}

// The "cpu" line of /proc/stat: busy and total ticks of all CPUs.
void system_cpu(uint64_t* busy, uint64_t* total) {
  *busy = *total = 0;
  FILE* file = std::fopen("/proc/stat", "r");
  if (!file) return;
  unsigned long long v[8] = {};
  const int n = std::fscanf(file, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                            &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  std::fclose(file);
  if (n < 5) return;
  for (unsigned long long ticks : v) *total += ticks;
  *busy = *total - v[3] - v[4];  // less idle and iowait
}

}  // namespace

Measurement::Measurement() : start_(std::chrono::steady_clock::now()) {
  process_cpu(&user_s_, &system_s_);
  system_cpu(&busy_ticks_, &total_ticks_);
}

double Measurement::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

Costs Measurement::finish() const {
  Costs costs;
  costs.wall_s = elapsed_s();
  process_cpu(&costs.user_s, &costs.system_s);
  costs.user_s -= user_s_;
  costs.system_s -= system_s_;
  uint64_t busy = 0, total = 0;
  system_cpu(&busy, &total);
  if (total > total_ticks_) {
    costs.busy_pct = 100.0 * double(busy - busy_ticks_) / double(total - total_ticks_);
  }
  return costs;
}

}  // namespace vkbench
