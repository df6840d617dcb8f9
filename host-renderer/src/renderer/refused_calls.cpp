#include "refused_calls.h"

#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>

namespace host {
namespace {

// A guest may make the driver try a refused call in a loop: only the first
// lines are written.
constexpr int kMaxReports = 32;
std::atomic<int> g_reports{0};

// Appends text to a fixed buffer; a signal handler may not allocate.
struct Line {
  char text[512];
  size_t size = 0;
  void add(const char* s) {
    for (; s && *s && size < sizeof text - 1; ++s) text[size++] = *s;
  }
  void add_number(long v) {
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0UL - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
    do digits[n++] = static_cast<char>('0' + u % 10); while ((u /= 10) != 0 && n < 23);
    if (v < 0) add("-");
    while (n > 0 && size < sizeof text - 1) text[size++] = digits[--n];
  }
};

#if defined(__x86_64__)
void set_result(ucontext_t* uc, long v) { uc->uc_mcontext.gregs[REG_RAX] = v; }
long argument(ucontext_t* uc, int i) {
  constexpr int kRegs[] = {REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9};
  return static_cast<long>(uc->uc_mcontext.gregs[kRegs[i]]);
}
#elif defined(__aarch64__)
void set_result(ucontext_t* uc, long v) { uc->uc_mcontext.regs[0] = static_cast<unsigned long long>(v); }
long argument(ucontext_t* uc, int i) { return static_cast<long>(uc->uc_mcontext.regs[i]); }
#endif

// The file an open names: its path argument.
const char* opened_path(long call, ucontext_t* uc) {
#ifdef SYS_open
  if (call == SYS_open) return reinterpret_cast<const char*>(argument(uc, 0));
#endif
  if (call == SYS_openat) return reinterpret_cast<const char*>(argument(uc, 1));
  return nullptr;
}

void on_refused_call(int, siginfo_t* info, void* context) {
  auto* uc = static_cast<ucontext_t*>(context);
  const int saved_errno = errno;
  if (g_reports.fetch_add(1) < kMaxReports) {
    Line line;
    line.add("conduit renderer: the sandbox refused system call ");
    line.add_number(info->si_syscall);
    if (const char* path = opened_path(info->si_syscall, uc)) {
      line.add(" (");
      line.add(path);
      line.add(")");
    }
    line.add("\n");
    (void)!::write(STDERR_FILENO, line.text, line.size);
  }
  set_result(uc, -EPERM);
  errno = saved_errno;
}

}  // namespace

bool report_refused_calls() {
#if defined(__x86_64__) || defined(__aarch64__)
  struct sigaction sa {};
  sa.sa_sigaction = on_refused_call;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  return ::sigaction(SIGSYS, &sa, nullptr) == 0;
#else
  return false;
#endif
}

}  // namespace host
