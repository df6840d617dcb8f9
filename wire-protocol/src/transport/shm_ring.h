// The shared region behind shm: transports, and the single-producer /
// single-consumer rings and blob heaps inside it.
//
// Region: control block (header, one line per side, per direction a producer
// line, a consumer line and the consumer's sleep flag, each on its own cache
// line so the two sides never write the same line), then ring 0, ring 1,
// heap 0, heap 1, and the memory area. Direction d carries messages to side d
// (side 0 is the listener), so side s consumes ring s and produces into ring
// 1-s. The memory area is the connecting side's to place long-lived shared
// allocations in (Vulkan device memory both sides map, docs/vulkan.md).
//
// Indices are free-running byte counters; each side keeps its own copy of the
// counters it owns and only reads the peer's, checking them before use, so a
// hostile peer can make a transfer fail but never make us touch memory
// outside the region.
//
// A polled file region serves one peer after another. Each use is a
// session, numbered in the header; the closed flags and heartbeats carry the
// session they belong to, so what a stale peer of an earlier session writes
// is told apart from the current session's state.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "wire/result.h"
#include "wire/writer.h"

namespace wire::transport::shm {

constexpr size_t kLine = 64;
constexpr uint32_t kRegionMagic = 0x4d485343;  // "CSHM" little-endian
constexpr uint32_t kRegionVersion = 3;
constexpr size_t kRecordAlign = 16;
constexpr size_t kHeapAlign = 64;

static_assert(std::atomic<uint64_t>::is_always_lock_free);
static_assert(std::atomic<uint32_t>::is_always_lock_free);

// Attach states of a polled file region (memfd regions go straight to
// kConnected): the listener waits in kListening, a peer moves it to
// kAttaching (and back, if it gives up), the listener answers kConnected.
// kResetting while the listener clears the region for the next session.
enum AttachState : uint32_t { kListening = 0, kAttaching = 1, kConnected = 2, kResetting = 3 };

struct alignas(kLine) RegionHeader {
  uint32_t magic;
  uint32_t version;
  uint64_t ring_bytes;
  uint64_t heap_bytes;
  uint64_t area_bytes;
  uint64_t total_bytes;
  std::atomic<uint32_t> state;
  std::atomic<uint32_t> session;  // never 0; bumped each time a file region is reset
};

struct alignas(kLine) SideLine {
  std::atomic<uint64_t> heartbeat;       // polled peers: beat_word(session, count)
  std::atomic<uint32_t> closed;          // the session this side let go of; 0 while attached
  std::atomic<uint32_t> beat_period_ms;  // the beater's current period
  // The beating thread's id as a robust futex word: its kernel marks it
  // kOwnerDied when that thread ends without clearing it (the process died).
  std::atomic<uint32_t> owner;
};

constexpr uint32_t kOwnerDied = 0x40000000;  // FUTEX_OWNER_DIED

inline uint64_t beat_word(uint32_t session, uint32_t count) {
  return uint64_t{session} << 32 | count;
}
inline uint32_t beat_session(uint64_t word) { return static_cast<uint32_t>(word >> 32); }

struct alignas(kLine) ProducerLine {
  std::atomic<uint64_t> head;
  std::atomic<uint32_t> waiting_for_space;
};

struct alignas(kLine) ConsumerLine {
  std::atomic<uint64_t> tail;
  std::atomic<uint64_t> heap_tail;
};

struct alignas(kLine) ConsumerFlag {
  std::atomic<uint32_t> sleeping;
};

struct DirectionControl {
  ProducerLine producer;
  ConsumerLine consumer;
  ConsumerFlag consumer_flag;
};

struct RegionControl {
  RegionHeader header;
  SideLine side[2];
  DirectionControl dir[2];
};

// Every ring record starts with this; size counts payload bytes only.
struct RecordHeader {
  uint32_t size;
  uint32_t flags;      // RecordFlags
  uint64_t heap_mark;  // producer's heap head when the message was sent
};
static_assert(sizeof(RecordHeader) == kRecordAlign);

enum RecordFlags : uint32_t {
  kRecordPad = 1u << 0,   // filler up to the end of the ring
  kRecordMore = 1u << 1,  // a fragment; the message continues in the next record
};

// Where everything sits, computed from the two sizes; kept privately by each
// side once checked, never re-read from the shared header.
struct Layout {
  size_t ring_bytes = 0;
  size_t heap_bytes = 0;
  size_t ring_offset[2] = {};
  size_t heap_offset[2] = {};
  size_t area_bytes = 0;
  size_t area_offset = 0;
  size_t total_bytes = 0;
};

// Checks requested sizes (ring: power of two; heap and area: multiples of
// 4096, the area starting on a 64 KiB boundary of the region).
Result<Layout> make_layout(size_t ring_bytes, size_t heap_bytes, size_t area_bytes = 0);
// Writes a fresh control block for `layout` at `base` (magic last). Over a
// region of an earlier listener, the session number goes on from its own.
void init_region(std::byte* base, const Layout& layout, uint32_t state);
// Starts the next session of a region a peer used: clears the per-side and
// per-direction lines and bumps the session, leaving the header valid
// throughout (a peer may be reading it to attach), then listens again.
void reset_region(std::byte* base);
// Gives back the pages after the control block (rings, heaps, memory area)
// of a region mapped shared from a memory file: the next session reads
// zeros there, never what the last peer sent or left in its memory.
void forget_contents(std::byte* base, const Layout& layout);
// Validates the header of a region the peer created, mapped with `mapped` bytes.
Result<Layout> read_layout(const std::byte* base, size_t mapped);

inline RegionControl* control(std::byte* base) { return reinterpret_cast<RegionControl*>(base); }

struct Record {
  std::span<const std::byte> payload;  // points into the ring
  uint32_t flags;
  uint64_t heap_mark;
  uint64_t next_tail;  // tail once this record is consumed
};

class RingConsumer {
 public:
  RingConsumer() = default;
  RingConsumer(DirectionControl* ctl, std::byte* ring, size_t ring_bytes)
      : ctl_(ctl), ring_(ring), cap_(ring_bytes) {}

  // The next record (padding skipped), nullopt when the ring is empty, or an
  // error when the producer's head or the record header cannot be right.
  Result<std::optional<Record>> peek();
  bool empty() const { return ctl_->producer.head.load(std::memory_order_acquire) == tail_; }
  // Frees ring space up to `next_tail` and blob-heap space up to `heap_mark`;
  // returns true when the producer sleeps waiting for that space.
  bool consume(uint64_t next_tail, std::optional<uint64_t> heap_mark);

  // Sleep protocol: announce, then re-check empty() before really sleeping.
  void announce_sleep() {
    ctl_->consumer_flag.sleeping.store(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  void end_sleep() { ctl_->consumer_flag.sleeping.store(0, std::memory_order_relaxed); }

 private:
  DirectionControl* ctl_ = nullptr;
  std::byte* ring_ = nullptr;
  size_t cap_ = 0;
  uint64_t tail_ = 0;
};

class RingProducer {
 public:
  RingProducer() = default;
  RingProducer(DirectionControl* ctl, std::byte* ring, size_t ring_bytes)
      : ctl_(ctl), ring_(ring), cap_(ring_bytes) {}

  // Largest payload one record can carry; longer messages go in fragments.
  size_t max_record() const { return cap_ / 2 - sizeof(RecordHeader); }

  // Writes and publishes one record; false when there is no room yet.
  Result<bool> try_write(std::span<const std::byte> payload, uint32_t flags, uint64_t heap_mark);
  // After a publish: true when the consumer announced that it sleeps.
  bool consumer_sleeping() const {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return ctl_->consumer_flag.sleeping.load(std::memory_order_relaxed) != 0;
  }
  // Wait protocol for a full ring: announce, re-check, sleep, end.
  void announce_wait() {
    ctl_->producer.waiting_for_space.store(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  void end_wait() { ctl_->producer.waiting_for_space.store(0, std::memory_order_relaxed); }

 private:
  Status refresh_tail();

  DirectionControl* ctl_ = nullptr;
  std::byte* ring_ = nullptr;
  size_t cap_ = 0;
  uint64_t head_ = 0;
  uint64_t tail_ = 0;  // last checked value of the consumer's tail
};

// The producer's half of a blob heap: blocks allocated in order, freed in
// order as the consumer releases the messages that referenced them.
class HeapProducer final : public BlobSink {
 public:
  HeapProducer() = default;
  HeapProducer(DirectionControl* ctl, std::byte* heap, size_t heap_bytes)
      : ctl_(ctl), heap_(heap), cap_(heap_bytes) {}

  std::byte* place(size_t size, uint64_t* offset) override;
  size_t threshold() const override { return kThreshold; }
  uint64_t mark() const { return head_; }
  // Set when the consumer reported a heap tail that cannot be right.
  const std::optional<Error>& error() const { return error_; }

  static constexpr size_t kThreshold = 16 * 1024;

 private:
  DirectionControl* ctl_ = nullptr;
  std::byte* heap_ = nullptr;
  size_t cap_ = 0;
  uint64_t head_ = 0;
  uint64_t tail_ = 0;
  std::optional<Error> error_;
};

}  // namespace wire::transport::shm
