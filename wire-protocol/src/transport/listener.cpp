// What every listener shares: the one-thread accept for simple callers, and
// how a peer is named in logs.
#include "fd.h"
#include "wire/transport.h"

namespace wire {

Result<std::unique_ptr<Channel>> Listener::accept(std::chrono::milliseconds timeout) {
  transport::Deadline deadline(timeout);
  for (;;) {
    auto peer = accept_peer(std::chrono::milliseconds(deadline.poll_ms()));
    if (!peer) return peer.error();
    auto channel = (*peer)->complete();
    if (channel) return channel;
    if (deadline.expired()) return make_error(Errc::kTimeout, "no peer completed its handshake");
  }
}

std::string PeerIdentity::describe() const {
  if (!has_credentials) return address;
  return address + " uid " + std::to_string(uid) + " pid " + std::to_string(pid);
}

}  // namespace wire
