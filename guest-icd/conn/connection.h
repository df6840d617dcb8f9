// The guest process's one connection to `conduit host`: the handshake, batch
// framing with the connection's zstd stream, switching the host's current
// context ahead of a context's batches, and routing what comes back (replies
// in request order, frames to their surfaces, lost contexts).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "conn/capture.h"
#include "conn/context_strings.h"
#include "conn/stats.h"
#include "wire/batch.h"
#include "wire/control.h"
#include "wire/patience.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/transport.h"

namespace icd {

struct HostInfo {
  wire::HelloReply reply{};
  std::string renderer;
  std::string vendor;
  std::string gl_version;
  std::string platform;
  uint64_t guest_memory_bytes = 0;  // what the host lets this guest hold; 0: not told
  uint32_t max_pbuffer_side = 0;    // the largest pbuffer width and height; 0: not told
};

// The (context, draw, read) triple the host must have current for a batch.
struct Binding {
  uint32_t context_id = 0;
  uint32_t draw_id = 0;
  uint32_t read_id = 0;
  bool operator==(const Binding&) const = default;
};

// Receives the frames the host finished for one surface, on the
// connection's receiving thread with its lock held (so a sink is never
// called after remove_sink returned).
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void on_frame(const wire::Frame& frame, std::span<const std::byte> pixels) = 0;
  // A host viewer's key or pointer event for the surface's window.
  virtual void on_input(const wire::Input& input) = 0;
  // Whether the host waits for FrameDone before reusing the frame's slot
  // (GL surfaces' frame ring); Vulkan's presents need none.
  virtual bool acknowledged() const { return true; }
};

class Connection {
 public:
  // The process-wide connection, made on first use from CONDUIT_HOST (or the
  // default address); null when the host cannot be reached.
  static std::shared_ptr<Connection> shared();

  // A new connection to `address` (tests use this directly).
  static wire::Result<std::shared_ptr<Connection>> open(const std::string& address);

  explicit Connection(std::unique_ptr<wire::Channel> channel);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const HostInfo& host() const { return host_; }
  bool lost() const;
  bool context_lost(uint32_t context_id) const;

  // Guest-chosen object ids (contexts, surfaces, syncs), never 0.
  uint32_t new_id();

  // Sends one batch. With `binding`, a MakeCurrent goes first when the host
  // has another context current. With `ticket`, the batch asks for a reply
  // that wait_reply(*ticket) returns.
  wire::Status send(const Binding* binding, std::span<const std::byte> commands,
                    uint32_t command_count, uint64_t* ticket = nullptr);

  // Waits for the reply to a batch sent with a ticket, receiving frames and
  // other messages meanwhile. Fails when the host is gone or too slow.
  wire::Result<std::vector<std::byte>> wait_reply(uint64_t ticket);
  // The same, but gives the reply up once `enough()` holds (checked under the
  // lock after every message received): then nullopt, and the reply is
  // dropped when it comes.
  using Enough = std::function<bool()>;
  wire::Result<std::optional<std::vector<std::byte>>> wait_reply_unless(uint64_t ticket, const Enough& enough);

  // Waits until the host ran every batch sent before (kSync round trip).
  wire::Status sync();

  // Before a context or surface is destroyed: if the host has it current,
  // release it there first.
  void forget(uint32_t id);

  // Waits until `ready()` (checked under the lock, after every message
  // received) or the deadline; false on timeout, a lost connection, or the
  // host's loss of context `context_id` (when not 0).
  bool wait_until(const std::function<bool()>& ready, std::chrono::milliseconds timeout, uint32_t context_id = 0);

  // FrameDone for every frame delivered since the last call. They travel in
  // the next swap's batch: the receiving thread never sends, so it can never
  // wait on a host that is itself waiting for us to receive.
  std::vector<wire::FrameDone> take_frames_done();

  // Who receives the host's messages of kind `op` that no one else does
  // (on the receiving thread, with its lock held); one per kind.
  using MessageListener = std::function<void(wire::Reader&)>;
  void listen(wire::ControlOp op, MessageListener listener);

  void add_sink(uint32_t surface_id, FrameSink* sink);
  void remove_sink(uint32_t surface_id);

  // Blob heap the writers may use, or null (sockets send data inline).
  wire::BlobSink* blob_sink() const { return blob_sink_; }
  // Memory the host maps too, for as long as the connection lives (empty on sockets).
  std::span<std::byte> shared_area() const { return channel_->shared_area(); }
  // The file holding the host's heap, where frames arrive (none on sockets):
  // presenters hand its frames to the X server in place.
  wire::MappedFile incoming_file() const { return channel_->incoming_file(); }

  Stats& stats() { return stats_; }
  // The strings of the contexts made on this connection, by their attributes.
  ContextStringsCache& context_strings() { return context_strings_; }
  // How long a wait for the host may take before the connection counts as lost.
  std::chrono::milliseconds timeout() const { return timeout_; }

  // Sends a single control command as its own batch.
  template <typename T>
  wire::Status send_control(wire::ControlOp op, const T& payload, uint64_t* ticket = nullptr) {
    wire::Writer w;
    size_t at = w.begin(static_cast<uint32_t>(op));
    w.put(payload);
    w.end(at);
    return send(nullptr, w.bytes(), w.commands(), ticket);
  }

 private:
  wire::Status handshake();
  void receive_loop();
  wire::Status encode_and_send(std::span<const std::byte> commands, uint16_t flags);
  void handle_batch(std::span<const std::byte> commands);
  void mark_lost(const std::string& why);

  std::unique_ptr<wire::Channel> channel_;
  wire::BlobSink* blob_sink_ = nullptr;
  HostInfo host_;
  Stats stats_;
  ContextStringsCache context_strings_;
  std::chrono::milliseconds timeout_;

  // Sending: the encoder's zstd history must see batches in send order.
  std::mutex send_mu_;
  wire::BatchEncoder encoder_;
  std::unique_ptr<Capture> capture_;  // CONDUIT_CAPTURE
  Binding host_current_;
  uint64_t next_ticket_ = 1;

  // What the receiving thread routes, and the waiters it wakes.
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> lost_{false};
  std::atomic<bool> any_context_lost_{false};  // lets context_lost() skip the lock
  wire::BatchDecoder decoder_;
  std::deque<uint64_t> waiting_;  // tickets in send order
  std::map<uint64_t, std::vector<std::byte>> replies_;
  std::set<uint64_t> given_up_;  // tickets whose replies nobody waits for
  std::map<uint32_t, FrameSink*> sinks_;
  std::map<wire::ControlOp, MessageListener> listeners_;
  std::vector<wire::FrameDone> frames_done_;
  std::set<uint32_t> lost_contexts_;
  std::string refusal_;  // why the host would not serve this program (kRefused)
  uint32_t next_id_ = 1;

  // Waits that keep looking before they sleep (wire/patience.h): batches
  // the receiving thread has handled, so a looking waiter checks again only
  // when one came, and how long waits lately lasted.
  bool looked_for(const std::function<bool()>& done);
  void remember_wait(std::chrono::steady_clock::duration spent);
  const bool patient_;
  std::atomic<uint64_t> batches_handled_{0};
  // Starts at the longest wait still looked through: the look begins after
  // a few short waits instead of a hundred.
  std::atomic<int64_t> typical_wait_ns_{std::chrono::nanoseconds(wire::Patience::kLongest).count()};

  std::atomic<bool> stopping_{false};
  std::thread receiver_;  // last: joined before the members it uses go away
};

}  // namespace icd
