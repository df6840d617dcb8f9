// A connection accepted on a socket, its handshake run in complete() on the
// thread that completes it: errors name the peer, and abandon() ends the
// handshake from any thread (it then fails at its next read or write)
// through a descriptor of its own, since the handshake's may be closed, and
// its number reused, at any moment. Stream links and shm links alike.
#pragma once

#include <fcntl.h>
#include <sys/socket.h>

#include <memory>
#include <mutex>

#include "fd.h"
#include "wire/transport.h"

namespace wire::transport {

class SocketPendingPeer : public PendingPeer {
 public:
  SocketPendingPeer(Fd sock, PeerIdentity peer)
      : sock_(std::move(sock)), abandon_fd_(::fcntl(sock_.get(), F_DUPFD_CLOEXEC, 0)), peer_(std::move(peer)) {}

  const PeerIdentity& peer() const final { return peer_; }

  Result<std::unique_ptr<Channel>> complete() final {
    auto ch = sock_.valid() ? handshake(std::move(sock_))
                            : Result<std::unique_ptr<Channel>>(make_error(Errc::kBadValue, "already completed"));
    {
      std::lock_guard lock(abandon_mutex_);
      abandon_fd_ = Fd();  // the channel's socket is no longer ours to end
    }
    if (ch) return ch;
    Error e = ch.error();
    e.detail = peer_.describe() + ": " + e.detail;
    return e;
  }

  void abandon() final {
    std::lock_guard lock(abandon_mutex_);
    if (abandon_fd_.valid()) ::shutdown(abandon_fd_.get(), SHUT_RDWR);
  }

 protected:
  // The link's handshake on the accepted socket, which it takes.
  virtual Result<std::unique_ptr<Channel>> handshake(Fd sock) = 0;

 private:
  Fd sock_;
  std::mutex abandon_mutex_;
  Fd abandon_fd_;  // until the handshake ends; under abandon_mutex_
  PeerIdentity peer_;
};

}  // namespace wire::transport
