#include "process_counts.h"

#include <dirent.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace hosttest {

size_t open_fds() {
  size_t n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d)) ++n;
    closedir(d);
  }
  return n;
}

size_t children() {
  size_t n = 0;
  DIR* d = opendir("/proc");
  if (!d) return 0;
  const std::string me = std::to_string(getpid());
  while (dirent* e = readdir(d)) {
    std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
    std::string pid, comm, state, ppid;
    if (stat >> pid >> comm >> state >> ppid && ppid == me) ++n;
  }
  closedir(d);
  return n;
}

size_t resident_kib() {
  malloc_trim(0);
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

}  // namespace hosttest
