#include "landlock.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "renderer_paths.h"

namespace host {
namespace {

// The kernel's interface, spelled out for headers older than the kernel:
// each ABI version adds rights (and the attribute grows) without renumbering.
constexpr uint64_t kExecute = 1ULL << 0;
constexpr uint64_t kWriteFile = 1ULL << 1;
constexpr uint64_t kReadFile = 1ULL << 2;
constexpr uint64_t kReadDir = 1ULL << 3;
constexpr uint64_t kChanging = 0x1FF0;         // remove, make (char, dir, file, socket, fifo, block, link)
constexpr uint64_t kRemoveDir = 1ULL << 4;
constexpr uint64_t kRemoveFile = 1ULL << 5;
constexpr uint64_t kMakeDir = 1ULL << 7;
constexpr uint64_t kMakeFile = 1ULL << 8;
constexpr uint64_t kRefer = 1ULL << 13;        // ABI 2
constexpr uint64_t kTruncate = 1ULL << 14;     // ABI 3
constexpr uint64_t kIoctlDevice = 1ULL << 15;  // ABI 5
constexpr uint64_t kBindTcp = 1ULL << 0;       // ABI 4, network rights
constexpr uint64_t kConnectTcp = 1ULL << 1;
constexpr uint64_t kScopeAbstractUnix = 1ULL << 0;  // ABI 6, scopes
constexpr uint64_t kScopeSignal = 1ULL << 1;
// Rights a rule on a file (not a folder) may carry.
constexpr uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDevice;
// A cache: files and folders made, written, truncated and removed; no
// devices, sockets, pipes or links, and nothing moved in from elsewhere.
constexpr uint64_t kCacheRights =
    kReadFile | kReadDir | kWriteFile | kTruncate | kRemoveDir | kRemoveFile | kMakeDir | kMakeFile;

struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

int abi_version() {
  return static_cast<int>(::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION));
}

// Every file right this kernel knows: what no rule grants is refused.
uint64_t handled_file_rights(int abi) {
  uint64_t rights = kExecute | kWriteFile | kReadFile | kReadDir | kChanging;
  if (abi >= 2) rights |= kRefer;
  if (abi >= 3) rights |= kTruncate;
  if (abi >= 5) rights |= kIoctlDevice;
  return rights;
}

// Grants `rights` on `path` (a file, or everything beneath a folder), as far
// as the kernel handles them. A path this machine lacks is skipped.
void allow(int ruleset, const std::string& path, uint64_t rights, uint64_t handled) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rights &= kFileRights;
  landlock_path_beneath_attr rule{};
  rule.allowed_access = rights & handled;
  rule.parent_fd = fd;
  (void)::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  ::close(fd);
}

}  // namespace

LandlockResult confine_files(const std::string& writable_folder) {
  const int abi = abi_version();
  if (abi < 1) return {};
  RulesetAttr attr{};
  attr.handled_access_fs = handled_file_rights(abi);
  // No rule grants a port: TCP is refused outright.
  if (abi >= 4) attr.handled_access_net = kBindTcp | kConnectTcp;
  if (abi >= 6) attr.scoped = kScopeAbstractUnix | kScopeSignal;
  // Older kernels take the shorter attribute; the fields they lack are zero.
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
  if (ruleset < 0) return {};
  const uint64_t handled = attr.handled_access_fs;
  for (const auto& path : readable_paths()) allow(ruleset, path, kReadFile | kReadDir, handled);
  for (const auto& path : gpu_device_paths()) {
    allow(ruleset, path, kReadFile | kReadDir | kWriteFile | kIoctlDevice, handled);
  }
  if (!writable_folder.empty()) allow(ruleset, writable_folder, kCacheRights, handled);
  const bool ok = ::syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
  ::close(ruleset);
  if (!ok) return {};
  return {abi, abi >= 6};
}

}  // namespace host
