// Where the host's admin socket is, by the addresses it listens on
// (wire/address.h has the addresses themselves and the default one).
#pragma once

#include <string>
#include <vector>

namespace host {

// The admin socket of a host listening at `address` (unix:PATH or shm:PATH):
// PATH.admin; empty for other addresses.
std::string admin_path_for(const std::string& address);

// The admin socket of a host: that of its first unix: or shm: address in
// `addresses`, else the default address's.
std::string admin_path(const std::vector<std::string>& addresses);

}  // namespace host
