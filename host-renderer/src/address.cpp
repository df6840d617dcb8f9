#include "host/address.h"

#include <unistd.h>

#include <cstdlib>

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

}  // namespace host
