// One transport interface, three implementations chosen by address:
//   shm:PATH        shared-memory rings (memfd + eventfds, or a polled file)
//   unix:PATH       unix stream socket
//   tcp:HOST:PORT   TCP (token checked in the handshake)
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "wire/result.h"
#include "wire/writer.h"

namespace wire {

// A message is one framed batch (BatchHeader + payload), opaque to the transport.
// Messages are delivered whole, in order, exactly once. One thread may send
// while another receives; each of the two sides alone is single-threaded.
class Channel {
 public:
  virtual ~Channel() = default;

  // Queues a message; never waits for the peer to process it (pipelined).
  // Blocks only while the outgoing ring/socket buffer is full, with a bound.
  virtual Status send(std::span<const std::byte> message) = 0;

  // Waits up to `timeout` for the next message. The span stays valid until
  // the next receive() or release(); kTimeout when nothing came, kClosed when
  // the peer is gone.
  virtual Result<std::span<const std::byte>> receive(std::chrono::milliseconds timeout) = 0;

  // Tells the transport the last received message (and the blob-heap bytes
  // it referenced) may be reclaimed.
  virtual void release() = 0;

  // Where this side puts large payloads for the peer; null when the transport
  // has no shared heap (sockets send them inline).
  virtual BlobSink* outgoing_heap() = 0;
  // The peer's heap as this side sees it (for resolving kHeap references).
  virtual std::span<const std::byte> incoming_heap() = 0;

  virtual void close() = 0;
  virtual std::string describe() const = 0;  // e.g. "unix:/run/conduit/host.sock"
};

class Listener {
 public:
  virtual ~Listener() = default;
  // Waits up to `timeout` for a new peer.
  virtual Result<std::unique_ptr<Channel>> accept(std::chrono::milliseconds timeout) = 0;
  virtual std::string describe() const = 0;
};

struct TransportOptions {
  std::string token;  // TCP: both sides must present the same token
  size_t ring_bytes = 8u << 20;   // shm: bytes per direction
  size_t heap_bytes = 64u << 20;  // shm: blob heap per direction
  size_t max_message_bytes = 64u << 20;  // larger messages from the peer are refused
  // Bound on a send blocked by a full ring or socket buffer, and on handshakes.
  std::chrono::milliseconds io_timeout{5000};
};

Result<std::unique_ptr<Channel>> connect(std::string_view address, const TransportOptions& opts = {});
Result<std::unique_ptr<Listener>> listen(std::string_view address, const TransportOptions& opts = {});

}  // namespace wire
