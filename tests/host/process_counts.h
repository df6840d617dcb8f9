// What this test process holds, to show that guests and renderers that come
// and go leave nothing behind.
#pragma once

#include <cstddef>

namespace hosttest {

// Open file descriptors of this process (memfds of renderers included).
size_t open_fds();
// Processes whose parent is this one (renderers not reaped would show here).
size_t children();
// Resident memory with the allocator's free pages handed back first, so the
// number follows what is live rather than where malloc happens to stand.
size_t resident_kib();

}  // namespace hosttest
