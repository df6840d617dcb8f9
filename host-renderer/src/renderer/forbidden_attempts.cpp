#include "forbidden_attempts.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace host {
namespace {

uint32_t result(long rc) { return rc < 0 ? static_cast<uint32_t>(errno) : 0; }

// Opens `path` for reading and reads a byte.
uint32_t read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return static_cast<uint32_t>(errno);
  char c;
  const uint32_t r = result(::read(fd, &c, 1));
  ::close(fd);
  return r;
}

uint32_t signal_through(int pidfd) {
  if (pidfd < 0) return static_cast<uint32_t>(errno);
  const uint32_t r = result(::syscall(SYS_pidfd_send_signal, pidfd, SIGCONT, nullptr, 0));
  ::close(pidfd);
  return r;
}

uint32_t queue_signal(pid_t pid) {
  siginfo_t info{};
  info.si_signo = SIGCONT;
  info.si_code = SI_QUEUE;
  info.si_pid = ::getpid();
  info.si_uid = ::getuid();
  return result(::syscall(SYS_rt_sigqueueinfo, pid, SIGCONT, &info));
}

uint32_t read_memory(pid_t pid) {
  char mine[8];
  iovec local{mine, sizeof mine};
  iovec remote{reinterpret_cast<void*>(&read_memory), sizeof mine};
  return result(::process_vm_readv(pid, &local, 1, &remote, 1, 0));
}

uint32_t trace(pid_t pid) {
  if (::ptrace(PTRACE_ATTACH, pid, nullptr, nullptr) < 0) return static_cast<uint32_t>(errno);
  ::ptrace(PTRACE_DETACH, pid, nullptr, nullptr);
  return 0;
}

uint32_t write_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return static_cast<uint32_t>(errno);
  const uint32_t r = result(::write(fd, "changed", 7));
  ::close(fd);
  return r;
}

// A program cache entry planted where the supervisor would read it.
uint32_t create_entry(const std::string& path) {
  const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) return static_cast<uint32_t>(errno);
  ::close(fd);
  ::unlink(path.c_str());
  return 0;
}

uint32_t create_file() {
  const std::string path = "/tmp/conduit-forbidden-" + std::to_string(::getpid());
  const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) return static_cast<uint32_t>(errno);
  ::close(fd);
  ::unlink(path.c_str());
  return 0;
}

uint32_t mount_tmpfs() {
  if (::mount("conduit", "/tmp", "tmpfs", 0, nullptr) < 0) return static_cast<uint32_t>(errno);
  ::umount2("/tmp", MNT_DETACH);
  return 0;
}

uint32_t closed_after(long fd) {
  if (fd < 0) return static_cast<uint32_t>(errno);
  ::close(static_cast<int>(fd));
  return 0;
}

uint32_t regain_capabilities() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct all[_LINUX_CAPABILITY_U32S_3];
  for (auto& d : all) d = {~0u, ~0u, ~0u};
  return result(::syscall(SYS_capset, &header, all));
}

uint32_t execute() {
  char* argv[] = {const_cast<char*>("/bin/true"), nullptr};
  char* envp[] = {nullptr};
  ::execve(argv[0], argv, envp);
  return static_cast<uint32_t>(errno);  // execve returns only when refused
}

uint32_t create_bpf_map() {
  // union bpf_attr's first fields for BPF_MAP_CREATE (0): an array map.
  uint32_t attr[16] = {2 /* BPF_MAP_TYPE_ARRAY */, 4, 4, 1};
  return closed_after(::syscall(SYS_bpf, 0, attr, sizeof attr));
}

// A taken-over renderer finds the counters page among its descriptors by name.
uint32_t shrink_counters_page() {
  DIR* d = ::opendir("/proc/self/fd");
  if (!d) return static_cast<uint32_t>(errno);
  uint32_t r = ENOENT;
  while (dirent* e = ::readdir(d)) {
    char target[256] = {};
    const std::string link = std::string("/proc/self/fd/") + e->d_name;
    if (::readlink(link.c_str(), target, sizeof target - 1) <= 0) continue;
    if (std::string_view(target).starts_with("/memfd:conduit-counters")) {
      r = result(::ftruncate(std::atoi(e->d_name), 0));
      break;
    }
  }
  ::closedir(d);
  return r;
}

// Root's ids, even without capabilities, own root's files and processes:
// a renderer of a root host holds none of them (renderer_user.h).
uint32_t hold_root_ids() {
  uid_t ruid, euid, suid;
  gid_t rgid, egid, sgid;
  if (::getresuid(&ruid, &euid, &suid) != 0 || ::getresgid(&rgid, &egid, &sgid) != 0) {
    return static_cast<uint32_t>(errno);
  }
  const bool root = ruid == 0 || euid == 0 || suid == 0 || rgid == 0 || egid == 0 || sgid == 0;
  return root ? 0 : EPERM;
}

// The system calls themselves: the C library's wrappers would ask every
// thread to change, with signals the filter keeps to the process.
uint32_t become_root() {
  if (::syscall(SYS_setresuid, 0, 0, 0) != 0) return static_cast<uint32_t>(errno);
  return result(::syscall(SYS_setresgid, 0, 0, 0));
}

}  // namespace

uint32_t try_forbidden(Forbidden what) {
  const pid_t supervisor = ::getppid();
  const std::string proc = "/proc/" + std::to_string(supervisor);
  const std::string host_file = "/tmp/conduit-fault-write-" + std::to_string(supervisor);
  switch (what) {
    case Forbidden::kSignalSupervisor:
      return result(::kill(supervisor, SIGCONT));
    case Forbidden::kQueueSignalSupervisor:
      return queue_signal(supervisor);
    case Forbidden::kSignalEveryone:
      return result(::kill(-1, 0));
    case Forbidden::kPidfdOfSupervisor:
      return signal_through(static_cast<int>(::syscall(SYS_pidfd_open, supervisor, 0)));
    case Forbidden::kProcDirOfSupervisor:
      return signal_through(::open(proc.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    case Forbidden::kLimitsOfSupervisor: {
      rlimit old{};
      return result(::prlimit(supervisor, RLIMIT_NOFILE, nullptr, &old));
    }
    case Forbidden::kSupervisorEnvironment:
      return read_file(proc + "/environ");
    case Forbidden::kSupervisorMemory:
      return read_memory(supervisor);
    case Forbidden::kTraceSupervisor:
      return trace(supervisor);
    case Forbidden::kReadShadow:
      return read_file("/etc/shadow");
    case Forbidden::kReadHostFile:
      return read_file(host_file);
    case Forbidden::kWriteHostFile:
      return write_file(host_file);
    case Forbidden::kCreateFile:
      return create_file();
    case Forbidden::kWriteProgramCache:
      return create_entry("/tmp/conduit-program-cache-" + std::to_string(supervisor) + "/programs/host/" +
                          std::string(64, '0'));
    case Forbidden::kMount:
      return mount_tmpfs();
    case Forbidden::kFsopen:
      return closed_after(::syscall(SYS_fsopen, "tmpfs", 0));
    case Forbidden::kOpenTree:
      return closed_after(::syscall(SYS_open_tree, AT_FDCWD, "/", 1 /* OPEN_TREE_CLONE */));
    case Forbidden::kRegainCapabilities:
      return regain_capabilities();
    case Forbidden::kUserNamespace:
      return result(::unshare(CLONE_NEWUSER));
    case Forbidden::kInetSocket:
      return closed_after(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    case Forbidden::kUnixSocket:
      return closed_after(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    case Forbidden::kExecute:
      return execute();
    case Forbidden::kBpf:
      return create_bpf_map();
    case Forbidden::kShrinkCountersPage:
      return shrink_counters_page();
    case Forbidden::kHoldRootIds:
      return hold_root_ids();
    case Forbidden::kBecomeRoot:
      return become_root();
    case Forbidden::kPriorityOfSupervisor:
      return result(::setpriority(PRIO_PROCESS, static_cast<id_t>(supervisor), 0));
    case Forbidden::kSchedulingOfSupervisor: {
      const sched_param normal{};
      return result(::sched_setscheduler(supervisor, SCHED_OTHER, &normal));
    }
  }
  return EINVAL;
}

}  // namespace host
