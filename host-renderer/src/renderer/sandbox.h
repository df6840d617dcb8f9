// Confining a renderer process (docs/host.md, "Threat model", says what a
// renderer taken over through its driver can still reach, and the test that
// shows each). In two steps around opening the display: what binds threads
// comes before the driver starts any, the system call filter after the
// driver has done what only start-up needs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "renderer_user.h"

#include "wire/result.h"

namespace host {

struct SandboxLimits {
  size_t data_bytes = 0;  // RLIMIT_DATA; 0 leaves it as it is
  size_t open_files = 1024;
};

// While the process has one thread: the ids of `identity` where given
// (renderer_user.h), not dumpable (no core files, no
// tracing by the host's user), PR_SET_NO_NEW_PRIVS, no capabilities, and
// files, TCP, signals and abstract sockets confined by Landlock where the
// kernel has it (landlock.h). Irreversible. Returns whether Landlock now
// confines the files it opens.
// `cache_folder` (empty: none) is the one folder it may also write, make
// files and folders in and remove them from: its drivers' shader cache.
wire::Result<bool> confine_process(const std::optional<RendererIdentity>& identity,
                                   const std::string& cache_folder);
// Once the display is open: resource limits and the system call filter
// (syscall_filter.h), on every thread. Irreversible.
wire::Status confine_calls(const SandboxLimits& limits, bool files_confined);

}  // namespace host
