#include "driver_libraries.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>

namespace host {

std::vector<std::string> loaded_libraries() {
  std::vector<std::string> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* list) {
        // The executable and the vDSO have no path; nothing unloads them.
        if (info->dlpi_name && info->dlpi_name[0] == '/') {
          static_cast<std::vector<std::string>*>(list)->emplace_back(info->dlpi_name);
        }
        return 0;
      },
      &out);
  return out;
}

void keep_libraries_loaded_since(const std::vector<std::string>& before) {
  for (const std::string& path : loaded_libraries()) {
    if (std::find(before.begin(), before.end(), path) != before.end()) continue;
    // Already loaded: this only marks it never to be unloaded.
    dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
}

}  // namespace host
