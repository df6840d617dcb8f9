// Which files a renderer may write, through Landlock (Linux 5.13 and later):
// only GPU device nodes. GPU drivers open their device nodes for writing
// while they run, not only when the display opens (NVIDIA opens
// /dev/nvidiactl for each context), which a system call filter cannot tell
// apart from writing any other file; Landlock decides by path.
#pragma once

namespace host {

// Restricts writing, creating, removing and renaming files to the GPU's
// device nodes for this process and its threads; needs PR_SET_NO_NEW_PRIVS.
// False when the kernel has no Landlock (nothing changed then).
bool restrict_writes_to_gpu_devices();

}  // namespace host
