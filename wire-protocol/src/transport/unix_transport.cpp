// unix:PATH — a unix stream socket (PATH, or @NAME for the abstract namespace).
// The listener's folder belongs to this user, the socket is owner-only, and
// each peer's uid is checked before anything else.
#include <unistd.h>

#include "local_access.h"
#include "stream_link.h"
#include "transports.h"

namespace wire::transport {

Result<std::unique_ptr<Channel>> unix_connect_channel(const Address& a,
                                                      const TransportOptions& opts) {
  auto fd = unix_connect(a.path, Deadline(opts.io_timeout));
  if (!fd) return fd.error();
  return open_stream_channel(std::move(*fd), a.describe(), opts, opts.socket_heaps);
}

Result<std::unique_ptr<Listener>> unix_listen_channel(const Address& a,
                                                      const TransportOptions& opts) {
  WIRE_TRY(prepare_socket_dir(a.path, opts));
  auto fd = unix_listen(a.path);
  if (!fd) return fd.error();
  WIRE_TRY(restrict_socket(a.path, opts));
  const std::string description = a.describe();
  auto identify = [description](int fd) { return unix_peer_identity(fd, description); };
  auto handshake = [opts, description](Fd fd, const PeerIdentity& peer,
                                       const Deadline& deadline) -> Result<std::unique_ptr<Channel>> {
    auto hello = read_hello(fd.get(), deadline);
    if (!hello) return hello.error();
    if (auto allowed = check_peer_allowed(peer, opts); !allowed) {
      return refuse(fd.get(), kLinkPeerNotAllowed, allowed.error(), deadline);
    }
    return accept_stream_link(std::move(fd), *hello, description + " (peer)", opts, deadline,
                              /*offer_heaps=*/true);
  };
  std::function<void()> unlink_path;
  if (a.path[0] != '@') unlink_path = [path = a.path] { ::unlink(path.c_str()); };
  std::unique_ptr<Listener> l =
      std::make_unique<StreamListener>(std::move(*fd), description, identify, handshake,
                                       opts.io_timeout, std::move(unlink_path));
  return l;
}

}  // namespace wire::transport
