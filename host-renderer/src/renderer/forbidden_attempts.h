// What a renderer taken over through its driver would try first, done for
// real by a renderer under test (--test-faults, wire::Fault::kForbidden) once
// its sandbox is in place: the test asserts each is refused and that the
// supervisor and other guests carry on (tests/host/sandbox_test.cpp).
// Each attempt is harmless to the supervisor if it succeeded (signal
// SIGCONT or 0, limits read, not set), so a hole shows as a failed
// assertion, not as a dead test.
#pragma once

#include <cstdint>

namespace host {

enum class Forbidden : uint32_t {
  kSignalSupervisor = 1,   // kill(supervisor, SIGCONT)
  kQueueSignalSupervisor,  // rt_sigqueueinfo(supervisor, SIGCONT)
  kSignalEveryone,         // kill(-1, 0)
  kPidfdOfSupervisor,      // pidfd_open(supervisor), then pidfd_send_signal
  kProcDirOfSupervisor,    // open /proc/<supervisor> (a pidfd too), then pidfd_send_signal
  kLimitsOfSupervisor,     // prlimit64(supervisor), reading only
  kSupervisorEnvironment,  // read /proc/<supervisor>/environ (its token)
  kSupervisorMemory,       // process_vm_readv from the supervisor
  kTraceSupervisor,        // ptrace(PTRACE_ATTACH, supervisor)
  kReadShadow,             // read /etc/shadow
  kReadHostFile,           // read /tmp/conduit-fault-write-PID (the test, PID, made it)
  kWriteHostFile,          // open /tmp/conduit-fault-write-PID for writing
  kCreateFile,             // create a file in /tmp
  kMount,                  // mount a tmpfs on /tmp
  kFsopen,                 // fsopen("tmpfs")
  kOpenTree,               // open_tree("/", OPEN_TREE_CLONE)
  kRegainCapabilities,     // capset every capability
  kUserNamespace,          // unshare(CLONE_NEWUSER): capabilities in a namespace of its own
  kInetSocket,             // socket(AF_INET)
  kUnixSocket,             // socket(AF_UNIX): the host's own sockets, X servers, ...
  kExecute,                // execve("/bin/true")
  kBpf,                    // bpf(BPF_MAP_CREATE)
  kShrinkCountersPage,     // ftruncate the page the supervisor reads its counters from
  kHoldRootIds,            // "succeeds" when its real, effective or saved uid or gid is 0
  kBecomeRoot,             // setresuid(0, 0, 0), then setresgid(0, 0, 0)
  kPriorityOfSupervisor,   // setpriority(supervisor, nice 0)
  kSchedulingOfSupervisor, // sched_setscheduler(supervisor, SCHED_OTHER)
  kWriteProgramCache,      // create an entry in /tmp/conduit-program-cache-<supervisor>/programs/host,
                           // the supervisor's program cache in the sandbox tests
};
constexpr uint32_t kForbiddenCount = static_cast<uint32_t>(Forbidden::kWriteProgramCache);

// 0 when it succeeded, else its errno (EINVAL for a number not listed).
uint32_t try_forbidden(Forbidden what);

}  // namespace host
