// Where guests find the host when no address is given.
#pragma once

#include <string>

namespace host {

// Where a guest connects: CONDUIT_HOST when set and not empty, otherwise
// default_socket_address().
std::string default_address();

// Where `conduit host` listens without --listen:
// "unix:$XDG_RUNTIME_DIR/conduit/host.sock", or "unix:/tmp/conduit-$UID/host.sock"
// when XDG_RUNTIME_DIR is unset or empty.
std::string default_socket_address();

}  // namespace host
