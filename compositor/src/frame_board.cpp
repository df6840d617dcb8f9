#include "comp/frame_board.h"

#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <new>
#include <string>

namespace comp {

namespace {
constexpr uint32_t kMagic = 0x44524f42;  // "BORD"
constexpr uint32_t kSlots = 3;
constexpr uint32_t kFresh = 4;  // in `middle`: published and not yet taken
constexpr uint32_t kSlotMask = 3;
constexpr size_t kHeaderBytes = 64;
constexpr int kSizeSeals = F_SEAL_SHRINK | F_SEAL_GROW;

wire::Error sys_error(const std::string& what) {
  return wire::make_error(wire::Errc::kIo, what + ": " + std::strerror(errno));
}

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// Slots start on 64-byte boundaries: their headers hold 8-byte atomics.
size_t slot_bytes(FrameSize size) { return kHeaderBytes + (size.bytes() + kHeaderBytes - 1) / kHeaderBytes * kHeaderBytes; }
size_t region_bytes(FrameSize size) { return kHeaderBytes + kSlots * slot_bytes(size); }

bool valid(FrameSize size) {
  return size.width > 0 && size.height > 0 && size.width <= FrameBoardWriter::kMaxSide &&
         size.height <= FrameBoardWriter::kMaxSide;
}

struct SlotHeader {
  std::atomic<uint64_t> sequence;
  std::atomic<uint32_t> frame_id;
  std::atomic<int64_t> published_ns;
};
static_assert(sizeof(SlotHeader) <= kHeaderBytes);
}  // namespace

struct BoardRegion {
  uint32_t magic;
  uint32_t width, height;
  std::atomic<uint32_t> middle;  // slot index, plus kFresh once published
};
static_assert(sizeof(BoardRegion) <= kHeaderBytes);
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free);

namespace {
SlotHeader* slot_header(BoardRegion* r, FrameSize size, uint32_t slot) {
  auto* base = reinterpret_cast<std::byte*>(r) + kHeaderBytes + slot * slot_bytes(size);
  return reinterpret_cast<SlotHeader*>(base);
}
std::byte* slot_pixels(BoardRegion* r, FrameSize size, uint32_t slot) {
  return reinterpret_cast<std::byte*>(slot_header(r, size, slot)) + kHeaderBytes;
}
}  // namespace

wire::Result<std::unique_ptr<FrameBoardWriter>> FrameBoardWriter::create(FrameSize size) {
  if (!valid(size)) return wire::make_error(wire::Errc::kBadValue, "frame board of an impossible size");
  std::unique_ptr<FrameBoardWriter> w(new FrameBoardWriter());
  w->size_ = size;
  w->region_bytes_ = region_bytes(size);
  w->memory_fd_ = ::memfd_create("conduit-frames", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (w->memory_fd_ < 0) return sys_error("memfd_create");
  if (::ftruncate(w->memory_fd_, static_cast<off_t>(w->region_bytes_)) != 0) return sys_error("frame board size");
  if (::fcntl(w->memory_fd_, F_ADD_SEALS, kSizeSeals | F_SEAL_SEAL) != 0) return sys_error("seal frame board");
  void* p = ::mmap(nullptr, w->region_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, w->memory_fd_, 0);
  if (p == MAP_FAILED) return sys_error("map frame board");
  w->region_ = new (p) BoardRegion{kMagic, size.width, size.height, {1}};
  for (uint32_t s = 0; s < kSlots; ++s) new (slot_header(w->region_, size, s)) SlotHeader{};
  w->doorbell_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (w->doorbell_fd_ < 0) return sys_error("eventfd");
  return w;
}

FrameBoardWriter::~FrameBoardWriter() {
  if (region_) ::munmap(region_, region_bytes_);
  if (memory_fd_ >= 0) ::close(memory_fd_);
  if (doorbell_fd_ >= 0) ::close(doorbell_fd_);
}

void FrameBoardWriter::publish(std::span<const std::byte> pixels, uint32_t frame_id) {
  if (pixels.size() < size_.bytes()) return;
  std::memcpy(slot_pixels(region_, size_, back_), pixels.data(), size_.bytes());
  SlotHeader* h = slot_header(region_, size_, back_);
  h->sequence.store(++sequence_, std::memory_order_relaxed);
  h->frame_id.store(frame_id, std::memory_order_relaxed);
  h->published_ns.store(monotonic_ns(), std::memory_order_relaxed);
  back_ = region_->middle.exchange(back_ | kFresh, std::memory_order_acq_rel) & kSlotMask;
  if (back_ >= kSlots) back_ = 0;  // only a scribbled board says so
  const uint64_t one = 1;
  (void)!::write(doorbell_fd_, &one, sizeof one);  // a full counter already rings
}

wire::Result<std::unique_ptr<FrameBoardReader>> FrameBoardReader::adopt(int memory_fd, int doorbell_fd,
                                                                        FrameSize size) {
  std::unique_ptr<FrameBoardReader> r(new FrameBoardReader());
  r->memory_fd_ = memory_fd;
  r->doorbell_fd_ = doorbell_fd;
  r->size_ = size;
  if (!valid(size)) return wire::make_error(wire::Errc::kBadValue, "frame board of an impossible size");
  r->region_bytes_ = region_bytes(size);
  // Its writer may be a renderer taken over: only a board that nobody can
  // shrink any more is mapped (a shrunk mapping faults its reader, SIGBUS).
  const int seals = ::fcntl(memory_fd, F_GET_SEALS);
  if (seals < 0 || (seals & kSizeSeals) != kSizeSeals) {
    return wire::make_error(wire::Errc::kBadValue, "frame board not sealed at its size");
  }
  struct stat st {};
  if (::fstat(memory_fd, &st) != 0) return sys_error("frame board");
  if (static_cast<uint64_t>(st.st_size) < r->region_bytes_) {
    return wire::make_error(wire::Errc::kBadLength, "frame board smaller than its frames");
  }
  void* p = ::mmap(nullptr, r->region_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, memory_fd, 0);
  if (p == MAP_FAILED) return sys_error("map frame board");
  r->region_ = static_cast<BoardRegion*>(p);
  if (r->region_->magic != kMagic || r->region_->width != size.width || r->region_->height != size.height) {
    return wire::make_error(wire::Errc::kBadValue, "frame board of another size");
  }
  return r;
}

FrameBoardReader::~FrameBoardReader() {
  if (region_) ::munmap(region_, region_bytes_);
  if (memory_fd_ >= 0) ::close(memory_fd_);
  if (doorbell_fd_ >= 0) ::close(doorbell_fd_);
}

void FrameBoardReader::drain_doorbell() {
  uint64_t count = 0;
  (void)!::read(doorbell_fd_, &count, sizeof count);
}

bool FrameBoardReader::take(std::span<const std::byte>* pixels, FrameStamp* stamp) {
  if ((region_->middle.load(std::memory_order_acquire) & kFresh) == 0) return false;
  const uint32_t slot = region_->middle.exchange(front_, std::memory_order_acq_rel) & kSlotMask;
  if (slot >= kSlots) return false;
  front_ = slot;
  SlotHeader* h = slot_header(region_, size_, slot);
  stamp->sequence = h->sequence.load(std::memory_order_relaxed);
  stamp->frame_id = h->frame_id.load(std::memory_order_relaxed);
  stamp->published_ns = h->published_ns.load(std::memory_order_relaxed);
  *pixels = {slot_pixels(region_, size_, slot), size_.bytes()};
  return true;
}

}  // namespace comp
