// The renderer's system call filter: an allow list of what a renderer
// serving guests was measured to call on Mesa (llvmpipe, lavapipe), with
// room for what drivers differ in (NVIDIA's); everything else fails with
// EPERM (named on stderr where the SIGSYS handler of refused_calls.h is
// installed).
#pragma once

#include "wire/result.h"

namespace host {

// Loads the filter on every thread of the process; irreversible. Needs
// PR_SET_NO_NEW_PRIVS. `files_confined`: Landlock limits what the process
// opens (otherwise the filter refuses every open that could write).
wire::Status load_syscall_filter(bool files_confined);

}  // namespace host
