#include "stream_link.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>

#include "socket_pending_peer.h"
#include "socket_stream.h"

namespace wire::transport {
namespace {

class StreamPendingPeer final : public SocketPendingPeer {
 public:
  StreamPendingPeer(Fd fd, PeerIdentity peer, std::shared_ptr<const StreamHandshake> handshake,
                    std::chrono::milliseconds timeout)
      : SocketPendingPeer(std::move(fd), std::move(peer)), handshake_(std::move(handshake)), timeout_(timeout) {}

 private:
  Result<std::unique_ptr<Channel>> handshake(Fd fd) override {
    return (*handshake_)(std::move(fd), peer(), Deadline(timeout_));
  }

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
                                                    const Deadline& deadline, bool offer_heaps) {
  const bool heaps = offer_heaps && hello.kind == LinkKind::kStreamHeaps;
  WIRE_TRY(check_hello(fd.get(), hello, heaps ? LinkKind::kStreamHeaps : LinkKind::kStream, opts.token, deadline));
  std::unique_ptr<StreamHeaps> region;
  if (heaps) {
    auto made = StreamHeaps::create(opts.heap_bytes);
    if (!made) return made.error();
    region = std::move(*made);
    const int file = region->file();
    WIRE_TRY(send_reply(fd.get(), LinkReply{kLinkOk, 0, region->region_bytes()}, std::span(&file, 1), deadline));
  } else {
    WIRE_TRY(send_reply(fd.get(), LinkReply{kLinkOk, 0, 0}, {}, deadline));
  }
  std::unique_ptr<Channel> ch =
      std::make_unique<StreamChannel>(std::move(fd), std::move(description), opts, std::move(region));
  return ch;
}

Result<std::unique_ptr<Channel>> open_stream_channel(Fd fd, std::string description,
                                                     const TransportOptions& opts, bool ask_heaps) {
  Deadline deadline(opts.io_timeout);
  WIRE_TRY(send_hello(fd.get(), ask_heaps ? LinkKind::kStreamHeaps : LinkKind::kStream, opts.token, deadline));
  Fd file;
  auto reply = read_reply(fd.get(), ask_heaps ? std::span(&file, 1) : std::span<Fd>(), deadline);
  if (!reply) return reply.error();
  std::unique_ptr<StreamHeaps> region;
  if (ask_heaps) {
    auto attached = StreamHeaps::attach(file.get(), reply->region_bytes, 1);
    if (!attached) return attached.error();
    region = std::move(*attached);
  }
  std::unique_ptr<Channel> ch =
      std::make_unique<StreamChannel>(std::move(fd), std::move(description), opts, std::move(region));
  return ch;
}

}  // namespace wire::transport
