#include "stream_heaps.h"

#include <sys/stat.h>

#include <new>

#include "fd.h"

namespace wire::transport {
namespace {

constexpr size_t kPage = 4096;

// The control lines, rounded up to a page so that the heaps start on one.
constexpr size_t kControlBytes = (sizeof(shm::DirectionControl) * 2 + kPage - 1) / kPage * kPage;

shm::DirectionControl* direction(std::byte* base, int d) {
  return reinterpret_cast<shm::DirectionControl*>(base) + d;
}

}  // namespace

StreamHeaps::StreamHeaps(std::shared_ptr<shm::Mapping> map, size_t heap_bytes, int side)
    : map_(std::move(map)),
      side_(side),
      producer_(direction(map_->base(), 1 - side), map_->base() + kControlBytes + (1 - side) * heap_bytes,
                heap_bytes),
      incoming_(map_->base() + kControlBytes + side * heap_bytes, heap_bytes) {}

Result<std::unique_ptr<StreamHeaps>> StreamHeaps::create(size_t heap_bytes) {
  if (heap_bytes == 0 || heap_bytes % kPage) return make_error(Errc::kBadValue, "heap size not a multiple of 4096");
  const size_t total = kControlBytes + 2 * heap_bytes;
  auto file = create_sealed_file("conduit-heaps", total);
  if (!file) return file.error();
  auto map = shm::Mapping::map(file->get(), total);
  if (!map) return map.error();
  for (int d = 0; d < 2; ++d) new (direction((*map)->base(), d)) shm::DirectionControl{};
  return std::unique_ptr<StreamHeaps>(new StreamHeaps(std::move(*map), heap_bytes, 0));
}

Result<std::unique_ptr<StreamHeaps>> StreamHeaps::attach(int file, uint64_t region_bytes, int side) {
  if (region_bytes <= kControlBytes || (region_bytes - kControlBytes) % (2 * kPage))
    return make_error(Errc::kBadLength, "heap region of " + std::to_string(region_bytes) + " bytes");
  struct stat st;
  if (::fstat(file, &st) < 0) return errno_error("fstat heap region");
  if (static_cast<uint64_t>(st.st_size) < region_bytes)
    return make_error(Errc::kBadLength, "heap region smaller than announced");
  auto map = shm::Mapping::map(file, region_bytes);
  if (!map) return map.error();
  const size_t heap_bytes = (region_bytes - kControlBytes) / 2;
  return std::unique_ptr<StreamHeaps>(new StreamHeaps(std::move(*map), heap_bytes, side));
}

void StreamHeaps::released(uint64_t mark) {
  direction(map_->base(), side_)->consumer.heap_tail.store(mark, std::memory_order_release);
}

}  // namespace wire::transport
