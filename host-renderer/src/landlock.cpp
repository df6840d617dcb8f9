#include "landlock.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace host {
namespace {

// Newer kernels' rights, for headers that predate them.
constexpr uint64_t kRefer = 1ULL << 13;     // ABI 2
constexpr uint64_t kTruncate = 1ULL << 14;  // ABI 3

int abi_version() {
  return static_cast<int>(::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION));
}

// Every right that changes the file system; reading and listing stay free.
uint64_t changing_rights(int abi) {
  uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                    LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                    LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |
                    LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) rights |= kRefer;
  if (abi >= 3) rights |= kTruncate;
  return rights;
}

// Device nodes GPU drivers open for writing: the DRM nodes (Mesa, and
// NVIDIA's modesetting), NVIDIA's own, and /dev/null.
std::vector<std::string> gpu_device_paths() {
  std::vector<std::string> paths = {"/dev/dri", "/dev/null"};
  if (DIR* d = ::opendir("/dev")) {
    while (dirent* e = ::readdir(d)) {
      if (std::string(e->d_name).rfind("nvidia", 0) == 0) paths.push_back(std::string("/dev/") + e->d_name);
    }
    ::closedir(d);
  }
  return paths;
}

// Lets `path` (a file, or everything beneath a folder) be written.
void allow_writing(int ruleset, const std::string& path) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return;  // not on this machine
  landlock_path_beneath_attr rule{};
  rule.allowed_access = LANDLOCK_ACCESS_FS_WRITE_FILE;
  rule.parent_fd = fd;
  (void)::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  ::close(fd);
}

}  // namespace

bool restrict_writes_to_gpu_devices() {
  const int abi = abi_version();
  if (abi < 1) return false;
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = changing_rights(abi);
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
  if (ruleset < 0) return false;
  for (const auto& path : gpu_device_paths()) allow_writing(ruleset, path);
  const bool ok = ::syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
  ::close(ruleset);
  return ok;
}

}  // namespace host
