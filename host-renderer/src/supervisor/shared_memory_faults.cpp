#include "shared_memory_faults.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace host {
namespace {

std::atomic<bool> g_reported{false};

// One mapping of /proc/self/maps: "start-end perms offset dev inode path".
struct MapsLine {
  uintptr_t start = 0, end = 0;
  char perms[5] = {};
};

// Parses the start of a line; false when it is not one.
bool parse(const char* line, size_t size, MapsLine* out) {
  size_t i = 0;
  auto hex = [&](uintptr_t* v) {
    size_t digits = 0;
    for (*v = 0; i < size; ++i, ++digits) {
      const char c = line[i];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) break;
      *v = *v * 16 + static_cast<uintptr_t>(d);
    }
    return digits > 0;
  };
  if (!hex(&out->start) || i >= size || line[i++] != '-' || !hex(&out->end)) return false;
  if (i + 5 > size || line[i++] != ' ') return false;
  for (int k = 0; k < 4; ++k) out->perms[k] = line[i + k];
  return true;
}

// Finds the mapping holding `addr`, reading /proc/self/maps with what a
// signal handler may call (open, read, close; no allocation).
bool find_mapping(uintptr_t addr, MapsLine* found) {
  const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[4096];
  char line[512];
  size_t used = 0;
  bool hit = false;
  for (ssize_t n; !hit && (n = ::read(fd, buf, sizeof buf)) > 0;) {
    for (ssize_t k = 0; k < n && !hit; ++k) {
      if (buf[k] != '\n') {
        if (used < sizeof line) line[used++] = buf[k];
        continue;
      }
      MapsLine m;
      hit = parse(line, used, &m) && m.start <= addr && addr < m.end;
      if (hit) *found = m;
      used = 0;
    }
  }
  ::close(fd);
  return hit;
}

void say_once() {
  if (g_reported.exchange(true)) return;
  static const char kText[] =
      "conduit host: shared memory was shrunk under the host (a ring file truncated?); "
      "it reads as zeros from now on\n";
  (void)!::write(STDERR_FILENO, kText, sizeof kText - 1);
}

void on_bus_error(int, siginfo_t* info, void*) {
  const int saved_errno = errno;
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  MapsLine m;
  // BUS_ADRERR on a shared mapping that holds no code: a page past the end
  // of a file someone shrank.
  const bool shrunk = info->si_code == BUS_ADRERR && find_mapping(addr, &m) && m.perms[2] != 'x' &&
                      m.perms[3] == 's';
  if (!shrunk || ::mmap(reinterpret_cast<void*>(m.start), m.end - m.start, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
    // Not ours to mend: the fault repeats with the default action.
    ::signal(SIGBUS, SIG_DFL);
    errno = saved_errno;
    return;
  }
  say_once();
  errno = saved_errno;
}

}  // namespace

void survive_shrunk_shared_memory() {
  struct sigaction sa {};
  sa.sa_sigaction = on_bus_error;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  (void)::sigaction(SIGBUS, &sa, nullptr);
}

}  // namespace host
