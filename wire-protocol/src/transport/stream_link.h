// Stream sockets (unix, tcp) from connection to channel: a listener that
// hands out accepted sockets unread, and the plaintext link handshake on
// both sides. What a listener does with a socket (uid check, token, TLS) is
// the handshake function its transport gives it.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "fd.h"
#include "handshake.h"
#include "wire/transport.h"

namespace wire::transport {

// Runs on the thread that completes a peer, within `deadline`.
using StreamHandshake = std::function<Result<std::unique_ptr<Channel>>(
    Fd fd, const PeerIdentity& peer, const Deadline& deadline)>;

class StreamListener final : public Listener {
 public:
  // `identify` names an accepted socket's peer (and may tune the socket);
  // `on_close` runs when the listener goes away (e.g. to unlink its path).
  StreamListener(Fd fd, std::string description, std::function<PeerIdentity(int)> identify,
                 StreamHandshake handshake, std::chrono::milliseconds handshake_timeout,
                 std::function<void()> on_close = {});
  ~StreamListener() override;

  Result<std::unique_ptr<PendingPeer>> accept_peer(std::chrono::milliseconds timeout) override;
  std::string describe() const override { return description_; }

 private:
  Fd fd_;
  std::string description_;
  std::function<PeerIdentity(int)> identify_;
  // Shared with pending peers, which may be completed after we are gone.
  std::shared_ptr<const StreamHandshake> handshake_;
  std::chrono::milliseconds handshake_timeout_;
  std::function<void()> on_close_;
};

// Listener side of the plaintext link: checks the hello's kind and token,
// answers, and returns the channel. With `offer_heaps` (unix sockets) a
// client that asks for blob heaps gets them (opts.heap_bytes each way).
Result<std::unique_ptr<Channel>> accept_stream_link(Fd fd, const ClientHello& hello,
                                                    std::string description,
                                                    const TransportOptions& opts,
                                                    const Deadline& deadline, bool offer_heaps = false);

// Client side of the plaintext link on a connected socket; `ask_heaps`
// asks a unix listener for blob heaps.
Result<std::unique_ptr<Channel>> open_stream_channel(Fd fd, std::string description,
                                                     const TransportOptions& opts, bool ask_heaps = false);

}  // namespace wire::transport
