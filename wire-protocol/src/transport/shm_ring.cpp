#include "shm_ring.h"

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <string>

namespace wire::transport::shm {
namespace {

constexpr size_t kPage = 4096;
constexpr size_t kMaxRing = size_t{1} << 30;
constexpr size_t kMaxHeap = size_t{4} << 30;
constexpr size_t kMaxArea = size_t{16} << 30;
constexpr size_t kAreaAlign = size_t{64} << 10;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

Error bad_state(const std::string& what, uint64_t value) {
  return make_error(Errc::kBadValue, "shared ring: " + what + " " + std::to_string(value));
}

// Session 0 would read as "closed" in the side lines.
uint32_t next_session(uint32_t session) { return session + 1 == 0 ? 1 : session + 1; }

void clear_lines(std::byte* base) {
  std::memset(static_cast<void*>(base + sizeof(RegionHeader)), 0,
              sizeof(RegionControl) - sizeof(RegionHeader));
}

}  // namespace

Result<Layout> make_layout(size_t ring_bytes, size_t heap_bytes, size_t area_bytes) {
  if (ring_bytes < kPage || ring_bytes > kMaxRing || (ring_bytes & (ring_bytes - 1)) != 0) {
    return make_error(Errc::kBadValue, "ring size " + std::to_string(ring_bytes) +
                                           " is not a power of two from 4 KiB to 1 GiB");
  }
  if (heap_bytes % kPage != 0 || heap_bytes > kMaxHeap) {
    return make_error(Errc::kBadValue, "heap size " + std::to_string(heap_bytes) +
                                           " is not a multiple of 4 KiB up to 4 GiB");
  }
  if (area_bytes % kPage != 0 || area_bytes > kMaxArea) {
    return make_error(Errc::kBadValue, "memory area size " + std::to_string(area_bytes) +
                                           " is not a multiple of 4 KiB up to 16 GiB");
  }
  Layout l;
  l.ring_bytes = ring_bytes;
  l.heap_bytes = heap_bytes;
  size_t at = round_up(sizeof(RegionControl), kPage);
  for (auto& off : l.ring_offset) {
    off = at;
    at += ring_bytes;
  }
  for (auto& off : l.heap_offset) {
    off = at;
    at += heap_bytes;
  }
  if (area_bytes) {
    at = round_up(at, kAreaAlign);
    l.area_offset = at;
    l.area_bytes = area_bytes;
    at += area_bytes;
  }
  l.total_bytes = at;
  return l;
}

void init_region(std::byte* base, const Layout& layout, uint32_t state) {
  RegionControl* c = control(base);
  uint32_t session = c->header.magic == kRegionMagic
                         ? next_session(c->header.session.load(std::memory_order_relaxed))
                         : 1;
  c->header.magic = 0;
  std::atomic_thread_fence(std::memory_order_release);
  clear_lines(base);
  c->header.version = kRegionVersion;
  c->header.ring_bytes = layout.ring_bytes;
  c->header.heap_bytes = layout.heap_bytes;
  c->header.area_bytes = layout.area_bytes;
  c->header.total_bytes = layout.total_bytes;
  c->header.session.store(session, std::memory_order_relaxed);
  c->header.state.store(state, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  reinterpret_cast<std::atomic<uint32_t>*>(&c->header.magic)
      ->store(kRegionMagic, std::memory_order_release);
}

// The session moves on before the lines are cleared: a stale peer that
// looks at it stops writing, and what it wrote in between carries the old
// number.
void reset_region(std::byte* base) {
  RegionControl* c = control(base);
  c->header.state.store(kResetting, std::memory_order_relaxed);
  c->header.session.store(next_session(c->header.session.load(std::memory_order_relaxed)),
                          std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  clear_lines(base);
  c->header.state.store(kListening, std::memory_order_release);
}

void forget_contents(std::byte* base, const Layout& layout) {
  const size_t from = layout.ring_offset[0];
  if (layout.total_bytes > from) ::madvise(base + from, layout.total_bytes - from, MADV_REMOVE);
}

Result<Layout> read_layout(const std::byte* base, size_t mapped) {
  if (mapped < sizeof(RegionControl)) {
    return make_error(Errc::kTruncated, "shared region of " + std::to_string(mapped) + " bytes");
  }
  uint32_t magic, version;
  uint64_t ring_bytes, heap_bytes, area_bytes, total_bytes;
  std::memcpy(&magic, base + offsetof(RegionHeader, magic), sizeof magic);
  std::atomic_thread_fence(std::memory_order_acquire);
  std::memcpy(&version, base + offsetof(RegionHeader, version), sizeof version);
  std::memcpy(&ring_bytes, base + offsetof(RegionHeader, ring_bytes), sizeof ring_bytes);
  std::memcpy(&heap_bytes, base + offsetof(RegionHeader, heap_bytes), sizeof heap_bytes);
  std::memcpy(&area_bytes, base + offsetof(RegionHeader, area_bytes), sizeof area_bytes);
  std::memcpy(&total_bytes, base + offsetof(RegionHeader, total_bytes), sizeof total_bytes);
  if (magic != kRegionMagic) return make_error(Errc::kBadMagic, "not a Conduit shared region");
  if (version != kRegionVersion) {
    return make_error(Errc::kBadVersion, "shared region version " + std::to_string(version));
  }
  auto layout = make_layout(ring_bytes, heap_bytes, area_bytes);
  if (!layout) return layout.error();
  if (layout->total_bytes != total_bytes || layout->total_bytes > mapped) {
    return make_error(Errc::kBadLength, "shared region needs " +
                                            std::to_string(layout->total_bytes) + " bytes, " +
                                            std::to_string(mapped) + " mapped");
  }
  return layout;
}

Result<std::optional<Record>> RingConsumer::peek() {
  for (;;) {
    uint64_t head = ctl_->producer.head.load(std::memory_order_acquire);
    if (head == tail_) return std::optional<Record>{};
    if (head < tail_ || head - tail_ > cap_) return bad_state("producer head", head);
    uint64_t avail = head - tail_;
    size_t pos = static_cast<size_t>(tail_ & (cap_ - 1));
    RecordHeader h;
    std::memcpy(&h, ring_ + pos, sizeof h);
    size_t room = cap_ - pos - sizeof h;  // contiguous bytes after the header
    if (h.size > room) return bad_state("record size", h.size);
    uint64_t total = sizeof h + ((h.size + kRecordAlign - 1) & ~(kRecordAlign - 1));
    if (total > avail) return bad_state("record beyond head, size", h.size);
    if (h.flags & ~(kRecordPad | kRecordMore)) return bad_state("record flags", h.flags);
    if (h.flags & kRecordPad) {
      if (h.flags != kRecordPad || h.size != room) return bad_state("padding record size", h.size);
      tail_ += total;  // published with the next consume()
      continue;
    }
    return std::optional<Record>{
        Record{{ring_ + pos + sizeof h, h.size}, h.flags, h.heap_mark, tail_ + total}};
  }
}

bool RingConsumer::consume(uint64_t next_tail, std::optional<uint64_t> heap_mark) {
  tail_ = next_tail;
  ctl_->consumer.tail.store(tail_, std::memory_order_release);
  if (heap_mark) ctl_->consumer.heap_tail.store(*heap_mark, std::memory_order_release);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return ctl_->producer.waiting_for_space.load(std::memory_order_relaxed) != 0;
}

Status RingProducer::refresh_tail() {
  uint64_t t = ctl_->consumer.tail.load(std::memory_order_acquire);
  if (t < tail_ || t > head_) return bad_state("consumer tail", t);
  tail_ = t;
  return {};
}

Result<bool> RingProducer::try_write(std::span<const std::byte> payload, uint32_t flags,
                                     uint64_t heap_mark) {
  size_t size = payload.size();
  uint64_t need = sizeof(RecordHeader) + ((size + kRecordAlign - 1) & ~(kRecordAlign - 1));
  size_t pos = static_cast<size_t>(head_ & (cap_ - 1));
  size_t contiguous = cap_ - pos;
  uint64_t pad = need > contiguous ? contiguous : 0;
  if (cap_ - (head_ - tail_) < pad + need) {
    WIRE_TRY(refresh_tail());
    if (cap_ - (head_ - tail_) < pad + need) return false;
  }
  if (pad) {
    RecordHeader filler{static_cast<uint32_t>(contiguous - sizeof(RecordHeader)), kRecordPad, 0};
    std::memcpy(ring_ + pos, &filler, sizeof filler);
    pos = 0;
  }
  RecordHeader h{static_cast<uint32_t>(size), flags, heap_mark};
  std::memcpy(ring_ + pos, &h, sizeof h);
  if (size) std::memcpy(ring_ + pos + sizeof h, payload.data(), size);
  head_ += pad + need;
  ctl_->producer.head.store(head_, std::memory_order_release);
  return true;
}

std::byte* HeapProducer::place(size_t size, uint64_t* offset) {
  if (error_ || cap_ == 0) return nullptr;
  size_t need = (size + kHeapAlign - 1) & ~(kHeapAlign - 1);
  if (need == 0 || need > cap_) return nullptr;
  size_t pos = static_cast<size_t>(head_ % cap_);
  size_t skip = cap_ - pos < need ? cap_ - pos : 0;
  if (cap_ - (head_ - tail_) < skip + need) {
    uint64_t t = ctl_->consumer.heap_tail.load(std::memory_order_acquire);
    if (t < tail_ || t > head_) {
      error_ = bad_state("consumer heap tail", t);
      return nullptr;
    }
    tail_ = t;
    if (cap_ - (head_ - tail_) < skip + need) return nullptr;
  }
  if (skip) pos = 0;
  head_ += skip + need;
  *offset = pos;
  return heap_ + pos;
}

}  // namespace wire::transport::shm
