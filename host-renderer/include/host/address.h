// Where guests find the host when no address is given.
#pragma once

#include <string>
#include <vector>

namespace host {

// Where a guest connects: CONDUIT_HOST when set and not empty, otherwise
// default_socket_address().
std::string default_address();

// Where `conduit host` listens without --listen:
// "unix:$XDG_RUNTIME_DIR/conduit/host.sock", or "unix:/tmp/conduit-$UID/host.sock"
// when XDG_RUNTIME_DIR is unset or empty.
std::string default_socket_address();

// The admin socket of a host listening at `address` (unix:PATH or shm:PATH):
// PATH.admin; empty for other addresses.
std::string admin_path_for(const std::string& address);

// The admin socket of a host: that of its first unix: or shm: address in
// `addresses`, else the default socket's.
std::string admin_path(const std::vector<std::string>& addresses);

}  // namespace host
