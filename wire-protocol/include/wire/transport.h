// One transport interface, three implementations chosen by address:
//   shm:PATH        shared-memory rings (memfd + eventfds, or a polled file)
//   unix:PATH       unix stream socket
//   tcp:HOST:PORT   TCP: TLS 1.3 keyed from the token (plaintext only when
//                   both sides ask for it with `insecure`)
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wire/mapped_file.h"
#include "wire/result.h"
#include "wire/writer.h"

namespace wire {

struct ChannelHandoff;  // wire/handoff.h

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

  // A descriptor (an eventfd) whose becoming readable ends receive()'s wait
  // for the next message early, as kTimeout, so that a receiver may wait
  // for its peer without a timeout yet still be woken for something else;
  // the receiver reads it empty. Transports that poll (rings without
  // doorbells) look at it between naps. -1: none.
  virtual void set_waker(int fd) { (void)fd; }

  // Tells the transport the last received message (and the blob-heap bytes
  // it referenced) may be reclaimed.
  virtual void release() = 0;

  // Where this side puts large payloads for the peer; null when the transport
  // has no shared heap (sockets send them inline).
  virtual BlobSink* outgoing_heap() = 0;
  // The peer's heap as this side sees it (for resolving kHeap references).
  virtual std::span<const std::byte> incoming_heap() = 0;
  // The file whose mapping holds incoming_heap(); none where the heap is not
  // a shared file's (sockets).
  virtual MappedFile incoming_file() const { return {}; }
  // Memory both sides map for the channel's whole life, placed by the
  // connecting side; empty where the transport shares none (sockets). Its
  // bytes are the peer's too: read them as a hostile peer's.
  virtual std::span<std::byte> shared_area() { return {}; }
  // Whether the guest's link stays on this machine (a unix socket, shared
  // memory), where moving bytes costs less time than compressing them.
  virtual bool local() const { return false; }
  // Whether its waits look on before they sleep (TransportOptions::patient_waits).
  virtual bool patient() const { return false; }

  virtual void close() = 0;
  virtual std::string describe() const = 0;  // e.g. "unix:/run/conduit/host.sock"

  // Gives this side of the channel to another process (wire/handoff.h);
  // afterwards this object is inert: destroying it closes nothing the peer
  // sees. Fails for channels whose state is more than descriptors (TLS keys),
  // which the exporting process must relay instead.
  virtual Result<ChannelHandoff> export_handoff();
};

// Who is at the other end of an accepted connection, as the kernel says.
struct PeerIdentity {
  std::string address;  // "unix:PATH", "tcp:10.0.0.2:51234", "shm:file=PATH"
  bool has_credentials = false;  // uid, gid and pid below come from SO_PEERCRED
  uint32_t uid = 0;
  uint32_t gid = 0;
  int32_t pid = 0;

  std::string describe() const;  // e.g. "unix:/run/.../host.sock uid 1000 pid 4242"
};

// A connection accepted but not yet spoken to: nothing has been read from
// it. complete() runs the link handshake (uid check, token or TLS, shared
// memory set-up) within TransportOptions::io_timeout, so a silent peer costs
// the thread that completes it at most that long, and never the accepting
// thread. A PendingPeer may outlive its Listener and be completed on any
// thread, once.
class PendingPeer {
 public:
  virtual ~PendingPeer() = default;
  virtual const PeerIdentity& peer() const = 0;
  virtual Result<std::unique_ptr<Channel>> complete() = 0;
  // From any thread: a complete() in progress (or to come) fails soon, so
  // that a silent peer's slot can go to another. No-op where unsupported.
  virtual void abandon() {}
};

class Listener {
 public:
  virtual ~Listener() = default;
  // Waits up to `timeout` for a new connection and returns it at once.
  virtual Result<std::unique_ptr<PendingPeer>> accept_peer(std::chrono::milliseconds timeout) = 0;
  // accept_peer() and complete() on the calling thread; peers that fail
  // their handshake are dropped and the wait goes on. For tests and simple
  // callers: a silent peer delays everyone behind it.
  Result<std::unique_ptr<Channel>> accept(std::chrono::milliseconds timeout);
  virtual std::string describe() const = 0;
};

struct TransportOptions {
  // Both sides must know the same token. On tcp: it keys TLS 1.3 (an
  // external PSK derived from it) and never crosses; elsewhere the link
  // handshake carries it.
  std::string token;
  // tcp: plaintext instead of TLS, the token in clear. Both sides must ask
  // for it; a mismatch is refused on both sides.
  bool insecure = false;
  // unix: and shm: listeners accept peers of this process's own uid, root,
  // and these uids (SO_PEERCRED). With any listed, sockets are made usable by
  // others (0666) and the uid check alone decides.
  std::vector<uint32_t> allowed_uids;
  size_t ring_bytes = 8u << 20;   // shm: bytes per direction
  size_t heap_bytes = 64u << 20;  // shm: and unix: blob heap per direction
  // unix: clients ask the listener for blob heaps beside the socket, so that
  // frames and large payloads are written once into shared memory instead
  // of copied through the socket.
  bool socket_heaps = true;
  // shm: the connecting side's memory area, where it places device memory
  // both sides map (docs/vulkan.md); pages cost only once touched.
  size_t area_bytes = 256u << 20;
  size_t max_message_bytes = 64u << 20;  // larger messages from the peer are refused
  // Bound on a send blocked by a full ring or socket buffer, and on handshakes.
  std::chrono::milliseconds io_timeout{5000};
  // Polled rings (shm:file=, ivshmem:): a peer that shows no sign of life
  // this long is gone. Long, so that a guest whose virtual CPUs a loaded
  // host does not run for a while keeps its session; a peer that closes,
  // or a host whose renderer ends, is noticed at once regardless.
  std::chrono::milliseconds ring_silence{10000};
  // shm: and unix: a side whose waits lately ended within a millisecond keeps
  // looking (yielding) about that long instead of sleeping on its doorbell or socket, whose
  // wake-up costs tens of microseconds. Unset: where the machine has four
  // cores or more, so that two cores stay shared fairly.
  std::optional<bool> patient_waits;
};

// The token in a file only its owner may read or write (like an ssh key):
// its first line, without the line end.
Result<std::string> read_token_file(const std::string& path);

// Options for a connecting program from its environment: CONDUIT_TOKEN or
// CONDUIT_TOKEN_FILE, and CONDUIT_INSECURE=1 for plaintext tcp.
Result<TransportOptions> options_from_environment();

Result<std::unique_ptr<Channel>> connect(std::string_view address, const TransportOptions& opts = {});
Result<std::unique_ptr<Listener>> listen(std::string_view address, const TransportOptions& opts = {});

}  // namespace wire
