#include "sandbox.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "capabilities.h"
#include "landlock.h"
#include "syscall_filter.h"
#include "wire/sanitizer.h"

namespace host {

namespace {

#if CONDUIT_ASAN
constexpr bool kSanitized = true;  // AddressSanitizer's shadow memory alone is terabytes of mappings
#else
constexpr bool kSanitized = false;
#endif

wire::Error sys_error(const std::string& what, int err) {
  return wire::make_error(wire::Errc::kIo, what + ": " + std::strerror(err));
}

wire::Status set_limit(int resource, rlim_t value, const char* name) {
  rlimit r{value, value};
  if (::setrlimit(resource, &r) != 0) return sys_error(std::string("setrlimit ") + name, errno);
  return {};
}

wire::Status apply_rlimits(const SandboxLimits& limits) {
  WIRE_TRY(set_limit(RLIMIT_CORE, 0, "RLIMIT_CORE"));
  WIRE_TRY(set_limit(RLIMIT_NOFILE, limits.open_files, "RLIMIT_NOFILE"));
  if (limits.data_bytes && !kSanitized) WIRE_TRY(set_limit(RLIMIT_DATA, limits.data_bytes, "RLIMIT_DATA"));
  return {};
}

}  // namespace

wire::Result<bool> confine_process(const std::optional<RendererIdentity>& identity,
                                   const std::string& cache_folder) {
  if (identity) {
    drop_bounding_set();  // needs CAP_SETPCAP, which the new uid takes away
    WIRE_TRY(take_identity(*identity));
  }
  // After the ids' change, which sets it to the system's default.
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return sys_error("PR_SET_DUMPABLE", errno);
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return sys_error("PR_SET_NO_NEW_PRIVS", errno);
  WIRE_TRY(drop_capabilities());
  return confine_files(cache_folder).abi > 0;
}

wire::Status confine_calls(const SandboxLimits& limits, bool files_confined) {
  WIRE_TRY(apply_rlimits(limits));
  return load_syscall_filter(files_confined);
}

}  // namespace host
