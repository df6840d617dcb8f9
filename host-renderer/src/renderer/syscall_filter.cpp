#include "syscall_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>

#include "refused_calls.h"
#include "wire/sanitizer.h"

namespace host {
namespace {

#if CONDUIT_ASAN
constexpr bool kSanitized = true;  // LeakSanitizer stops the world with a traced clone at exit
#else
constexpr bool kSanitized = false;
#endif

// Allowed whatever their arguments. Files are opened, read and written
// only where Landlock lets them (landlock.h); ioctls reach only the GPU's
// device nodes that way, and descriptors passed in or inherited (a
// terminal among those cannot be typed into: the renderer has no
// controlling terminal and no CAP_SYS_ADMIN, renderer_process.cpp).
constexpr int kAllowed[] = {
    // memory
    SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect),
    SCMP_SYS(madvise), SCMP_SYS(mincore), SCMP_SYS(msync), SCMP_SYS(mlock), SCMP_SYS(munlock),
    SCMP_SYS(membarrier), SCMP_SYS(memfd_create), SCMP_SYS(get_mempolicy), SCMP_SYS(mbind),
    SCMP_SYS(set_mempolicy),
    // descriptors and files
    SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(pread64),
    SCMP_SYS(pwrite64), SCMP_SYS(preadv), SCMP_SYS(pwritev), SCMP_SYS(preadv2), SCMP_SYS(pwritev2),
    SCMP_SYS(lseek), SCMP_SYS(close), SCMP_SYS(close_range), SCMP_SYS(dup), SCMP_SYS(dup2),
    SCMP_SYS(dup3), SCMP_SYS(fcntl), SCMP_SYS(flock),
    SCMP_SYS(fstat), SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(newfstatat), SCMP_SYS(statx),
    SCMP_SYS(statfs), SCMP_SYS(fstatfs), SCMP_SYS(access), SCMP_SYS(faccessat),
    SCMP_SYS(faccessat2),
    SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(getdents), SCMP_SYS(getdents64),
    SCMP_SYS(getcwd),
    SCMP_SYS(ftruncate), SCMP_SYS(fallocate), SCMP_SYS(fsync), SCMP_SYS(fdatasync),
    SCMP_SYS(fadvise64), SCMP_SYS(ioctl), SCMP_SYS(pipe), SCMP_SYS(pipe2), SCMP_SYS(eventfd),
    SCMP_SYS(eventfd2),
    // waiting
    SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(select), SCMP_SYS(pselect6), SCMP_SYS(epoll_create),
    SCMP_SYS(epoll_create1), SCMP_SYS(epoll_ctl), SCMP_SYS(epoll_wait), SCMP_SYS(epoll_pwait),
    SCMP_SYS(epoll_pwait2), SCMP_SYS(futex), SCMP_SYS(futex_waitv), SCMP_SYS(nanosleep),
    SCMP_SYS(clock_nanosleep), SCMP_SYS(sched_yield), SCMP_SYS(restart_syscall),
    SCMP_SYS(timerfd_create), SCMP_SYS(timerfd_settime), SCMP_SYS(timerfd_gettime),
    // sockets it was given: the control socket and the guests' channels
    SCMP_SYS(sendmsg), SCMP_SYS(recvmsg), SCMP_SYS(sendto), SCMP_SYS(recvfrom), SCMP_SYS(sendmmsg),
    SCMP_SYS(recvmmsg), SCMP_SYS(shutdown), SCMP_SYS(getsockopt), SCMP_SYS(getsockname),
    SCMP_SYS(getpeername),
    // threads, signals to itself, time and what it is
    SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(set_robust_list), SCMP_SYS(get_robust_list),
    SCMP_SYS(set_tid_address), SCMP_SYS(rseq), SCMP_SYS(arch_prctl), SCMP_SYS(sched_getaffinity),
    SCMP_SYS(sched_getparam), SCMP_SYS(sched_getscheduler), SCMP_SYS(sched_get_priority_max),
    SCMP_SYS(sched_get_priority_min), SCMP_SYS(getcpu), SCMP_SYS(rt_sigaction),
    SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack),
    SCMP_SYS(rt_sigtimedwait),
    SCMP_SYS(rt_sigsuspend), SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres),
    SCMP_SYS(gettimeofday),
    SCMP_SYS(time), SCMP_SYS(times), SCMP_SYS(getrusage), SCMP_SYS(getpid), SCMP_SYS(gettid),
    SCMP_SYS(getppid), SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid),
    SCMP_SYS(getresuid), SCMP_SYS(getresgid), SCMP_SYS(getgroups), SCMP_SYS(uname),
    SCMP_SYS(sysinfo),
    SCMP_SYS(getrandom), SCMP_SYS(getrlimit), SCMP_SYS(capget),
};

// prctl options drivers and the C library use on themselves.
constexpr unsigned kAllowedPrctl[] = {
    PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE, PR_CAPBSET_READ, PR_GET_NO_NEW_PRIVS,
    PR_GET_TIMERSLACK, PR_SET_TIMERSLACK, 0x53564d41 /* PR_SET_VMA: naming its own mappings */,
};

// Calls allowed only about the renderer itself (their first argument, a
// process id, is checked): signals and resource limits.
constexpr int kOnlyAboutItself[] = {
    SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo),
    SCMP_SYS(prlimit64),
};

// What LeakSanitizer does at exit in sanitizer builds: a traced clone
// that stops the other threads and reads their registers.
constexpr int kLeakCheck[] = {SCMP_SYS(ptrace), SCMP_SYS(wait4), SCMP_SYS(prctl), SCMP_SYS(clone)};

wire::Error rule_error(int rc) {
  return wire::make_error(wire::Errc::kIo, std::string("seccomp rule: ") + std::strerror(-rc));
}

struct FilterDeleter {
  void operator()(void* ctx) const { seccomp_release(ctx); }
};

// A call this kernel or architecture lacks (a negative number) is already unreachable.
int allow_always(scmp_filter_ctx ctx, int call) {
  return call < 0 ? 0 : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, call, 0);
}

wire::Status allow_unconditional(scmp_filter_ctx ctx) {
  for (int call : kAllowed) {
    if (int rc = allow_always(ctx, call); rc != 0) return rule_error(rc);
  }
  if (kSanitized) {
    for (int call : kLeakCheck) {
      if (int rc = allow_always(ctx, call); rc != 0) return rule_error(rc);
    }
  }
  return {};
}

// Argument `arg` is `value` as the kernel reads it: process ids and prctl
// options are C ints, and the kernel ignores the upper half of the
// register, so the check must too (a 64-bit comparison would let a
// caller slip any value past it with the upper half set).
scmp_arg_cmp int_equals(unsigned arg, scmp_datum_t value) {
  scmp_arg_cmp c{};
  c.arg = arg;
  c.op = SCMP_CMP_MASKED_EQ;
  c.datum_a = 0xFFFFFFFFu;
  c.datum_b = value;
  return c;
}

wire::Status allow_conditional(scmp_filter_ctx ctx) {
  const auto self = static_cast<scmp_datum_t>(::getpid());
  int rc = 0;
  for (int call : kOnlyAboutItself) {
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, call, 1, int_equals(0, self));
  }
  // getrlimit and setrlimit are prlimit64 on process 0, which is itself.
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, int_equals(0, 0));
  // Threads, never processes; clone3 hides its flags in memory, so it fails
  // with ENOSYS, which makes the C library fall back to clone.
  if (rc == 0 && !kSanitized) {
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                          SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
  }
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  // openat2 can say what open cannot check; the C library falls back to openat.
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
  // Mesa pins its queue threads to CPUs where it can, and carries on where
  // it cannot; allowed, the call could pin any process of the host's user.
  // Refused quietly: it is expected.
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setaffinity), 0);
  // Mesa's shader cache writes from a thread it asks to run at the lowest
  // priority (SCHED_IDLE, nice 19), and writes at the usual one where it
  // cannot; allowed, the calls could lower any process of the host's user.
  // Refused quietly too.
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setscheduler), 0);
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setpriority), 0);
  for (unsigned option : kAllowedPrctl) {
    if (rc == 0 && !kSanitized) {
      rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, int_equals(0, option));
    }
  }
  if (rc != 0) return rule_error(rc);
  return {};
}

// Opening files: Landlock decides by path where the kernel has it; without
// it, only opening to read is allowed (drivers that open a device node
// after start-up then fail, which is better than writing anywhere).
wire::Status allow_opens(scmp_filter_ctx ctx, bool files_confined) {
  if (files_confined) {
    int rc = 0;
    // Making, renaming and removing too: Landlock allows them only in the
    // renderer's shader cache folder (a driver writes a cache entry to a
    // file of its own, then renames it into place).
    for (int call : {SCMP_SYS(openat), SCMP_SYS(open), SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rename),
                     SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(unlink), SCMP_SYS(unlinkat)}) {
      if (rc == 0) rc = allow_always(ctx, call);
    }
    return rc == 0 ? wire::Status{} : wire::Status(rule_error(rc));
  }
  const scmp_datum_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
  int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                            SCMP_A2(SCMP_CMP_MASKED_EQ, writing, 0));
  if (rc == 0 && SCMP_SYS(open) >= 0) {
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(open), 1,
                          SCMP_A1(SCMP_CMP_MASKED_EQ, writing, 0));
  }
  return rc == 0 ? wire::Status{} : wire::Status(rule_error(rc));
}

}  // namespace

wire::Status load_syscall_filter(bool files_confined) {
  // Refused calls fail with EPERM; where the handler can be installed it
  // also names them on stderr.
  const uint32_t refuse = report_refused_calls() ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
  std::unique_ptr<void, FilterDeleter> ctx(seccomp_init(refuse));
  if (!ctx) return wire::make_error(wire::Errc::kIo, "seccomp_init failed");
  // Every thread: the driver's own (llvmpipe's rasterizers run shaders the
  // guest wrote) started with the display, before the filter.
  if (int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_TSYNC, 1); rc != 0) {
    return rule_error(rc);
  }
  // The allow list is long: a binary tree of system call numbers instead
  // of a linear chain, so each of the driver's ioctls is judged in a few
  // comparisons (libseccomp 2.5's optimisation level 2).
  if (int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2); rc != 0) return rule_error(rc);
  WIRE_TRY(allow_unconditional(ctx.get()));
  WIRE_TRY(allow_conditional(ctx.get()));
  WIRE_TRY(allow_opens(ctx.get(), files_confined));
  if (int rc = seccomp_load(ctx.get()); rc != 0) return rule_error(rc);
  return {};
}

}  // namespace host
