// Unix sockets for local services beside the guest listeners (the host's
// admin socket): the folder and the socket are checked and made owner-only
// as a guest listener's are, and only this user and root get through.
#pragma once

#include <chrono>
#include <string>

#include "wire/result.h"

namespace wire {

// A listening, non-blocking socket at `path` (a stale socket file is replaced).
Result<int> listen_owner_socket(const std::string& path);
// Whether the peer of an accepted connection is this user or root.
bool peer_is_owner(int fd);
// A connected, non-blocking socket to `path`.
Result<int> connect_owner_socket(const std::string& path, std::chrono::milliseconds timeout);

}  // namespace wire
