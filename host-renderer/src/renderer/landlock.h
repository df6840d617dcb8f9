// Which files a renderer may open, and whom it may signal, through Landlock
// (Linux 5.13 and later; more of it on newer kernels). Decided by path, which
// a system call filter cannot see: GPU drivers open their device nodes, read
// their configuration and load libraries while they run, not only when the
// display opens (NVIDIA opens /dev/nvidiactl for each context; the Vulkan
// loader reads its manifests for each guest's instance).
#pragma once

#include <string>

namespace host {

struct LandlockResult {
  int abi = 0;          // 0: the kernel has no Landlock, and nothing changed
  bool scoped = false;  // signals and abstract sockets kept within the process (ABI 6)
};

// From now on this process (it must have one thread: Landlock binds the
// calling thread and those it starts later) reads only what GPU drivers and
// their loaders need, writes only the GPU's device nodes and /dev/null,
// creates, removes and renames nothing, binds and connects no TCP port and,
// where the kernel can, signals no other process and connects to no
// abstract socket made outside it. In `writable_folder` (empty: none) it
// may also make, write and remove files and folders. Needs
// PR_SET_NO_NEW_PRIVS.
LandlockResult confine_files(const std::string& writable_folder);

}  // namespace host
