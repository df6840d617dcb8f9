// Confining a renderer process once its display is open: resource limits and
// a seccomp-bpf filter (docs/host-processes.md says what is refused and why).
#pragma once

#include <cstddef>

#include "wire/result.h"

namespace host {

struct SandboxLimits {
  size_t data_bytes = 0;  // RLIMIT_DATA; 0 leaves it as it is
  size_t open_files = 1024;
};

wire::Status apply_rlimits(const SandboxLimits& limits);
// PR_SET_NO_NEW_PRIVS, Landlock where the kernel has it (files written only
// on the GPU's device nodes) and the system call filter; irreversible.
wire::Status apply_seccomp();

}  // namespace host
