// The GL driver stays loaded for the life of the process. Mesa unloads its
// driver when the last display closes: a later display pays for loading it
// again, and LeakSanitizer, which looks at exit, finds the driver's
// allocations in an unloaded module and can no longer tell them (suppressed
// by tests/lsan.supp) from Conduit's own.
#pragma once

#include <string>
#include <vector>

namespace host {

// The paths of the shared objects loaded now.
std::vector<std::string> loaded_libraries();

// Keeps every shared object loaded since `before` loaded until the process ends.
void keep_libraries_loaded_since(const std::vector<std::string>& before);

}  // namespace host
