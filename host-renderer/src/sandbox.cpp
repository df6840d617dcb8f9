#include "sandbox.h"

#include <fcntl.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "landlock.h"
#include "refused_calls.h"
#include "wire/sanitizer.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

wire::Error sys_error(const std::string& what, int err) {
  return make_error(Errc::kIo, what + ": " + std::strerror(err));
}

wire::Status set_limit(int resource, rlim_t value, const char* name) {
  rlimit r{value, value};
  if (::setrlimit(resource, &r) != 0) return sys_error(std::string("setrlimit ") + name, errno);
  return {};
}

// Calls a renderer never makes once it serves guests: the ways a process
// taken over through the driver would reach further (network, programs,
// files, other processes, the kernel's administrative interfaces).
#if CONDUIT_ASAN
constexpr bool kSanitized = true;  // sanitizer builds: LeakSanitizer traces a clone at exit, shadow memory is huge
#else
constexpr bool kSanitized = false;
#endif

constexpr int kRefused[] = {
    SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen),
    SCMP_SYS(accept), SCMP_SYS(accept4), SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork),
    SCMP_SYS(vfork), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
    SCMP_SYS(tkill), SCMP_SYS(unlink), SCMP_SYS(unlinkat),
    SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(mkdir), SCMP_SYS(mkdirat),
    SCMP_SYS(rmdir), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink), SCMP_SYS(symlinkat),
    SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown), SCMP_SYS(fchown),
    SCMP_SYS(fchownat), SCMP_SYS(lchown), SCMP_SYS(truncate), SCMP_SYS(creat), SCMP_SYS(mknod),
    SCMP_SYS(mknodat), SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot),
    SCMP_SYS(setns), SCMP_SYS(unshare), SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key),
    SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(init_module), SCMP_SYS(finit_module),
    SCMP_SYS(delete_module), SCMP_SYS(kexec_load), SCMP_SYS(kexec_file_load), SCMP_SYS(reboot),
    SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(setuid), SCMP_SYS(setgid), SCMP_SYS(setreuid),
    SCMP_SYS(setregid), SCMP_SYS(setresuid), SCMP_SYS(setresgid), SCMP_SYS(setgroups),
    SCMP_SYS(personality), SCMP_SYS(userfaultfd), SCMP_SYS(name_to_handle_at),
    SCMP_SYS(open_by_handle_at), SCMP_SYS(io_uring_setup), SCMP_SYS(pidfd_open),
    SCMP_SYS(pidfd_getfd), SCMP_SYS(ioperm), SCMP_SYS(iopl), SCMP_SYS(acct), SCMP_SYS(settimeofday),
    SCMP_SYS(clock_settime), SCMP_SYS(sethostname), SCMP_SYS(setdomainname), SCMP_SYS(quotactl),
};

// Opening with any of these flags makes or changes a file. Opening to
// write (O_WRONLY, O_RDWR) is refused here only where Landlock cannot limit
// it to the GPU's device nodes.
constexpr unsigned kMakingOpen[] = {O_CREAT, O_TRUNC, O_APPEND};
constexpr unsigned kWritingOpen[] = {O_WRONLY, O_RDWR};

struct FilterDeleter {
  void operator()(void* ctx) const { seccomp_release(ctx); }
};

wire::Status refuse_opens_with(scmp_filter_ctx ctx, uint32_t refuse, unsigned flag) {
  int rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, flag, flag));
  if (rc == 0) rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, flag, flag));
  if (rc != 0) return sys_error("seccomp rule", -rc);
  return {};
}

wire::Status add_rules(scmp_filter_ctx ctx, uint32_t refuse, bool writes_confined) {
  for (int call : kRefused) {
    // A call this kernel or architecture lacks is already unreachable.
    if (call < 0) continue;
    if (int rc = seccomp_rule_add(ctx, refuse, call, 0); rc != 0) return sys_error("seccomp rule", -rc);
  }
  // New processes: clone is how threads start too, so only clones without
  // CLONE_THREAD are refused; clone3 hides its flags in memory, so it is
  // refused with ENOSYS, which makes the C library fall back to clone.
  int rc = 0;
  if (!kSanitized) {
    rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    if (rc == 0) rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(ptrace), 0);
  }
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
  // Signals only to itself (abort and thread cancellation use them).
  const auto self = static_cast<scmp_datum_t>(::getpid());
  if (rc == 0) rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, self));
  if (rc == 0) rc = seccomp_rule_add(ctx, refuse, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, self));
  if (rc != 0) return sys_error("seccomp rule", -rc);
  // Files: reading stays possible (drivers read their configuration and
  // caches lazily); opening to create is refused, and opening to write where
  // Landlock does not keep writes to the GPU's device nodes.
  for (unsigned flag : kMakingOpen) WIRE_TRY(refuse_opens_with(ctx, refuse, flag));
  if (!writes_confined) {
    for (unsigned flag : kWritingOpen) WIRE_TRY(refuse_opens_with(ctx, refuse, flag));
  }
  return {};
}

}  // namespace

wire::Status apply_rlimits(const SandboxLimits& limits) {
  WIRE_TRY(set_limit(RLIMIT_CORE, 0, "RLIMIT_CORE"));
  WIRE_TRY(set_limit(RLIMIT_NOFILE, limits.open_files, "RLIMIT_NOFILE"));
  // AddressSanitizer's shadow memory alone is terabytes of private mappings.
  if (limits.data_bytes && !kSanitized) WIRE_TRY(set_limit(RLIMIT_DATA, limits.data_bytes, "RLIMIT_DATA"));
  return {};
}

wire::Status apply_seccomp() {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return sys_error("PR_SET_NO_NEW_PRIVS", errno);
  const bool writes_confined = restrict_writes_to_gpu_devices();
  std::unique_ptr<void, FilterDeleter> ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) return make_error(Errc::kIo, "seccomp_init failed");
  // Refused calls fail with EPERM; where the handler can be installed it
  // also names them on stderr.
  const uint32_t refuse = report_refused_calls() ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
  WIRE_TRY(add_rules(ctx.get(), refuse, writes_confined));
  if (int rc = seccomp_load(ctx.get()); rc != 0) return sys_error("seccomp_load", -rc);
  return {};
}

}  // namespace host
