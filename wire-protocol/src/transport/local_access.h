// Who may reach a local endpoint: socket directories and ring files that
// belong to this user alone, sockets made owner-only, and the uid of every
// unix-socket peer checked against an allow list (SO_PEERCRED).
#pragma once

#include <string>

#include "fd.h"
#include "wire/transport.h"

namespace wire::transport {

// Whether the listener's options let users other than this one and root in.
bool admits_other_users(const TransportOptions& opts);

// Creates the directory of a unix socket path (0700, or 0711 when other
// users are admitted, so they can reach the socket but not list or change
// the folder) where it is missing, and refuses one that another user owns
// or that others may write to (unless it is sticky and root's, like /tmp,
// where others cannot remove or replace what we create).
Status prepare_socket_dir(const std::string& socket_path, const TransportOptions& opts);

// After bind: the socket file is owner-only, or open to all when other
// users are admitted (their uid is checked at accept).
Status restrict_socket(const std::string& socket_path, const TransportOptions& opts);

// The kernel's word on who is at the other end of a unix socket.
PeerIdentity unix_peer_identity(int fd, std::string address);

// Refuses a peer whose uid is not this process's, root's or listed.
Status check_peer_allowed(const PeerIdentity& peer, const TransportOptions& opts);

// A ring file for shm:file=: created with O_EXCL|O_NOFOLLOW, or, when it
// exists, opened without following a link and accepted only if it is a
// regular file of this user that nobody else may read or write.
Result<Fd> open_ring_file(const std::string& path);

}  // namespace wire::transport
