#include "capabilities.h"

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace host {
namespace {

struct CapabilitySets {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
};

bool any_left(const CapabilitySets& sets) {
  for (const auto& d : sets.data) {
    if (d.effective || d.permitted || d.inheritable) return true;
  }
  return false;
}

wire::Error fail(const std::string& what) {
  return wire::make_error(wire::Errc::kIo, what + ": " + std::strerror(errno));
}

}  // namespace

void drop_bounding_set() {
  // Dropping needs CAP_SETPCAP, which only a privileged renderer has (and
  // then drops too). Numbers past the kernel's last capability fail: the end.
  for (int cap = 0; cap <= 63; ++cap) {
    if (::prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0) break;
    (void)::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  }
}

wire::Status drop_capabilities() {
  drop_bounding_set();
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
    return fail("clear ambient capabilities");
  }
  CapabilitySets none;
  if (::syscall(SYS_capset, &none.header, none.data) != 0) return fail("capset");
  CapabilitySets now;
  if (::syscall(SYS_capget, &now.header, now.data) != 0) return fail("capget");
  if (any_left(now))
    return wire::make_error(wire::Errc::kIo, "capabilities left after dropping them");
  return {};
}

}  // namespace host
