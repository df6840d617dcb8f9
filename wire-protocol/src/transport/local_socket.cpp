#include "wire/local_socket.h"

#include "fd.h"
#include "local_access.h"

namespace wire {

using transport::Fd;

Result<int> listen_owner_socket(const std::string& path) {
  const TransportOptions owner_only;
  WIRE_TRY(transport::prepare_socket_dir(path, owner_only));
  auto fd = transport::unix_listen(path);
  if (!fd) return fd.error();
  WIRE_TRY(transport::restrict_socket(path, owner_only));
  return fd->release();
}

bool peer_is_owner(int fd) {
  return transport::check_peer_allowed(transport::unix_peer_identity(fd, "unix"), TransportOptions{}).ok();
}

Result<int> connect_owner_socket(const std::string& path, std::chrono::milliseconds timeout) {
  auto fd = transport::unix_connect(path, transport::Deadline(timeout));
  if (!fd) return fd.error();
  return fd->release();
}

}  // namespace wire
