#include "host/address.h"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace host {

std::string default_address() {
  const char* env = std::getenv("CONDUIT_HOST");
  if (env && *env) return env;
  return default_socket_address();
}

std::string default_socket_address() {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime && *runtime) return std::string("unix:") + runtime + "/conduit/host.sock";
  return "unix:/tmp/conduit-" + std::to_string(getuid()) + "/host.sock";
}

std::string admin_path_for(const std::string& address) {
  for (std::string_view prefix : {"unix:", "shm:"}) {
    if (address.rfind(prefix, 0) != 0 || address.rfind("shm:file=", 0) == 0) continue;
    std::string path = address.substr(prefix.size());
    if (path.empty() || path[0] == '@') return "";
    return path + ".admin";
  }
  return "";
}

std::string admin_path(const std::vector<std::string>& addresses) {
  for (const auto& a : addresses) {
    if (auto p = admin_path_for(a); !p.empty()) return p;
  }
  return admin_path_for(default_socket_address());
}

}  // namespace host
