// A Channel over a shared region: one ring and one blob heap per direction.
// Two ways to wake a sleeping side: eventfd doorbells plus a unix socket
// whose hang-up reports a dead peer (memfd regions), or polling alone with
// heartbeats in the region (a file, e.g. seen by a guest through ivshmem).
//
// A channel belongs to the region's session it was made in: once the
// session has moved on (the listener reset the region for the next peer) it
// writes nothing more there and reports the end as kClosed. When it closes,
// or learns that its peer has gone, it lets go of the region (sets its
// side's closed flag to its session) only after every write it had in
// flight is done, so that a listener which waits for that may reset the
// region safely.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fd.h"
#include "shm_ring.h"
#include "wire/patience.h"
#include "wire/transport.h"

namespace wire::transport::shm {

class Mapping {
 public:
  static Result<std::shared_ptr<Mapping>> map(int fd, size_t size);
  ~Mapping();
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  std::byte* base() const { return base_; }
  size_t size() const { return size_; }
  // The mapped file, kept so that the region can be handed to another process.
  int file() const { return file_.get(); }

 private:
  Mapping(std::byte* base, size_t size, Fd file) : base_(base), size_(size), file_(std::move(file)) {}
  std::byte* base_;
  size_t size_;
  Fd file_;
};

// data[d] is rung by the producer of direction d, space[d] by its consumer.
struct Doorbells {
  Fd data[2];
  Fd space[2];
  Fd socket;  // its hang-up means the peer is gone
};

struct ShmCounters {
  uint64_t kicks = 0;     // doorbell writes made by this side
  uint64_t sleeps = 0;    // waits that went past spinning and yielding
  uint64_t syscalls = 0;  // every system call of send/receive: kicks, yields, polls, reads
};

class ShmChannel final : public Channel {
 public:
  // `bells` empty selects polling with heartbeats; `on_close` runs when the
  // channel is destroyed.
  ShmChannel(std::shared_ptr<Mapping> map, const Layout& layout, int side,
             std::optional<Doorbells> bells, const TransportOptions& opts,
             std::string description, std::function<void()> on_close = {});
  ~ShmChannel() override;

  Status send(std::span<const std::byte> message) override;
  Result<std::span<const std::byte>> receive(std::chrono::milliseconds timeout) override;
  void release() override;
  BlobSink* outgoing_heap() override { return layout_.heap_bytes ? &heap_ : nullptr; }
  std::span<const std::byte> incoming_heap() override { return incoming_heap_; }
  MappedFile incoming_file() const override { return {map_->file(), map_->base(), map_->size()}; }
  std::span<std::byte> shared_area() override {
    return {map_->base() + layout_.area_offset, layout_.area_bytes};
  }
  void close() override;
  std::string describe() const override { return description_; }
  bool local() const override { return true; }
  bool patient() const override { return patient_; }
  void set_waker(int fd) override { waker_ = fd; }
  Result<ChannelHandoff> export_handoff() override;

  ShmCounters counters() const { return {kicks_.load(), sleeps_.load(), syscalls_.load()}; }

  // Heartbeats of polled regions; how long a silent peer may stay silent is
  // TransportOptions::ring_silence.
  static constexpr std::chrono::milliseconds kBeatPeriod{10};
  static constexpr std::chrono::milliseconds kQuietBeatPeriod{60};
  static constexpr std::chrono::milliseconds kQuietAfter{1000};

 private:
  // Per waiting thread: the peer's signs of life as last seen, and how many
  // recent waits outlasted spinning (then spinning is cut short, since on a
  // busy machine it only delays the peer we wait for).
  struct PeerWatch {
    uint64_t last_signs = 0;  // heartbeat plus the peer's ring positions
    Clock::time_point changed = Clock::now();
    unsigned long_waits = 0;
    Clock::time_point last_ready = Clock::now();  // the last wait that ended ready
    // Of waits that ended ready, smoothed; from the longest still looked
    // through, so the look begins after a few short waits.
    Clock::duration typical_wait = Patience::kLongest;
    Clock::time_point seen = {};                   // the last look at the heartbeat
  };
  static Clock::duration allowed_silence(const RegionControl& ctl, int peer,
                                         std::chrono::milliseconds silence);
  enum class Role { kConsumer, kProducer };

  // Writes into the region happen between enter() (false once closed) and
  // leave(); the last leave() after a close lets go of the region.
  bool enter();
  void leave();
  class Access;
  void let_go();
  // Our session is still the region's.
  bool attached() const;
  // kClosed when the peer closed or the session ended; what any wait checks first.
  Status session_over() const;
  static Status session_over(const RegionControl& ctl, int peer, uint32_t session);

  // Calls `ready` until it first returns true and never after: the
  // producer's `ready` writes the record, so a further call would send it
  // again.
  Status wait(const std::function<bool()>& ready, Role role, PeerWatch& watch,
              const Deadline& deadline);
  Status wait_steps(const std::function<bool()>& ready, Role role, PeerWatch& watch,
                    const Deadline& deadline);
  // One nap; true when its own look at `ready` found it true (then the
  // caller must return without calling `ready` again).
  bool sleep_once(const std::function<bool()>& ready, Role role, const Deadline& deadline,
                  std::chrono::microseconds nap);
  Status peer_gone(PeerWatch& watch);
  Status polled_peer_silent(PeerWatch& watch);
  static Status polled_peer_silent(const RegionControl& ctl, int side, uint32_t session,
                                   std::chrono::milliseconds silence, PeerWatch& watch);
  std::function<bool()> polled_peer_probe() const;
  void ring(const Fd& bell);
  void count_syscall() { syscalls_.fetch_add(1, std::memory_order_relaxed); }
  Status write_record(std::span<const std::byte> chunk, uint32_t flags, const Deadline& d);
  Error fail_receive(Error e);
  void release_held();
  void heartbeat_loop(std::stop_token stop);

  std::shared_ptr<Mapping> map_;
  Layout layout_;
  int side_;
  int peer_;
  RegionControl* ctl_;
  uint32_t session_;
  std::optional<Doorbells> bells_;
  std::string description_;
  size_t max_message_;
  std::chrono::milliseconds io_timeout_;
  std::chrono::milliseconds silence_;
  bool patient_;  // TransportOptions::patient_waits
  std::function<void()> on_close_;

  RingProducer producer_;  // direction peer_
  HeapProducer heap_;
  RingConsumer consumer_;  // direction side_
  std::span<const std::byte> incoming_heap_;

  // Receive side.
  enum class Held { kNone, kRecord, kAssembled } held_ = Held::kNone;
  Record held_record_{};
  uint64_t held_mark_ = 0;
  std::vector<std::byte> assembly_;
  std::optional<Error> rx_error_;
  PeerWatch rx_watch_;

  // Send side.
  std::optional<Error> tx_error_;
  PeerWatch tx_watch_;

  std::atomic<uint64_t> kicks_{0};
  std::atomic<uint64_t> sleeps_{0};
  std::atomic<uint64_t> syscalls_{0};
  std::atomic<bool> closed_{false};
  std::atomic<int> in_flight_{0};     // enter()ed and not yet left
  std::atomic<bool> let_go_{false};   // our closed flag is written (or must never be)
  int waker_ = -1;  // Channel::set_waker: ends a consumer's wait
  std::jthread heartbeat_;  // last: stops before the mapping goes away
};

}  // namespace wire::transport::shm
