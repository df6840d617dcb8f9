#include "conn/area_allocator.h"

#include <iterator>

namespace icd {

AreaAllocator::AreaAllocator(uint64_t area_bytes) {
  const uint64_t usable = area_bytes / kGranule * kGranule;
  if (usable) free_[0] = usable;
}

std::optional<uint64_t> AreaAllocator::allocate(uint64_t bytes) {
  if (bytes == 0 || bytes > UINT64_MAX - kGranule) return std::nullopt;
  const uint64_t size = rounded(bytes);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    const uint64_t offset = it->first;
    const uint64_t left = it->second - size;
    free_.erase(it);
    if (left) free_[offset + size] = left;
    used_[offset] = size;
    return offset;
  }
  return std::nullopt;
}

void AreaAllocator::release(uint64_t offset) {
  auto used = used_.find(offset);
  if (used == used_.end()) return;
  uint64_t start = offset, size = used->second;
  used_.erase(used);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto before = std::prev(next);
    if (before->first + before->second == start) {
      start = before->first;
      size += before->second;
      free_.erase(before);
    }
  }
  free_[start] = size;
}

uint64_t AreaAllocator::free_bytes() const {
  uint64_t n = 0;
  for (const auto& [offset, size] : free_) n += size;
  return n;
}

}  // namespace icd
