#include "stream_link.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>

#include "socket_stream.h"

namespace wire::transport {
namespace {

class StreamPendingPeer final : public PendingPeer {
 public:
  StreamPendingPeer(Fd fd, PeerIdentity peer, std::shared_ptr<const StreamHandshake> handshake,
                    std::chrono::milliseconds timeout)
      : fd_(std::move(fd)),
        abandon_fd_(::fcntl(fd_.get(), F_DUPFD_CLOEXEC, 0)),
        peer_(std::move(peer)),
        handshake_(std::move(handshake)),
        timeout_(timeout) {}

  const PeerIdentity& peer() const override { return peer_; }

  Result<std::unique_ptr<Channel>> complete() override {
    if (!fd_.valid()) return make_error(Errc::kBadValue, peer_.describe() + ": already completed");
    auto ch = (*handshake_)(std::move(fd_), peer_, Deadline(timeout_));
    {
      std::lock_guard lock(abandon_mutex_);
      abandon_fd_ = Fd();  // the channel's socket is no longer ours to end
    }
    if (ch) return ch;
    Error e = ch.error();
    e.detail = peer_.describe() + ": " + e.detail;
    return e;
  }

  // Ends the connection under the handshake (which then fails at its next
  // read) through a descriptor of its own: the handshake's may be closed,
  // and its number reused, at any moment.
  void abandon() override {
    std::lock_guard lock(abandon_mutex_);
    if (abandon_fd_.valid()) ::shutdown(abandon_fd_.get(), SHUT_RDWR);
  }

 private:
  Fd fd_;
  std::mutex abandon_mutex_;
  Fd abandon_fd_;  // until the handshake ends; under abandon_mutex_
  PeerIdentity peer_;
  std::shared_ptr<const StreamHandshake> handshake_;
  std::chrono::milliseconds timeout_;
};

}  // namespace

StreamListener::StreamListener(Fd fd, std::string description,
                               std::function<PeerIdentity(int)> identify,
                               StreamHandshake handshake,
                               std::chrono::milliseconds handshake_timeout,
                               std::function<void()> on_close)
    : fd_(std::move(fd)),
      description_(std::move(description)),
      identify_(std::move(identify)),
      handshake_(std::make_shared<const StreamHandshake>(std::move(handshake))),
      handshake_timeout_(handshake_timeout),
      on_close_(std::move(on_close)) {}

StreamListener::~StreamListener() {
  if (on_close_) on_close_();
}

Result<std::unique_ptr<PendingPeer>> StreamListener::accept_peer(std::chrono::milliseconds timeout) {
  auto fd = accept_fd(fd_.get(), Deadline(timeout));
  if (!fd) return fd.error();
  PeerIdentity peer = identify_(fd->get());
  std::unique_ptr<PendingPeer> pending = std::make_unique<StreamPendingPeer>(
      std::move(*fd), std::move(peer), handshake_, handshake_timeout_);
  return pending;
}

Result<std::unique_ptr<Channel>> accept_stream_link(Fd fd, const ClientHello& hello,
                                                    std::string description,
                                                    const TransportOptions& opts,
                                                    const Deadline& deadline) {
  WIRE_TRY(check_hello(fd.get(), hello, LinkKind::kStream, opts.token, deadline));
  WIRE_TRY(send_reply(fd.get(), LinkReply{kLinkOk, 0, 0}, {}, deadline));
  std::unique_ptr<Channel> ch =
      std::make_unique<StreamChannel>(std::move(fd), std::move(description), opts);
  return ch;
}

Result<std::unique_ptr<Channel>> open_stream_channel(Fd fd, std::string description,
                                                     const TransportOptions& opts) {
  Deadline deadline(opts.io_timeout);
  WIRE_TRY(send_hello(fd.get(), LinkKind::kStream, opts.token, deadline));
  auto reply = read_reply(fd.get(), {}, deadline);
  if (!reply) return reply.error();
  std::unique_ptr<Channel> ch =
      std::make_unique<StreamChannel>(std::move(fd), std::move(description), opts);
  return ch;
}

}  // namespace wire::transport
