// Places long-lived allocations in the channel's shared area: first fit
// over the free ranges, every range a multiple of the granule, neighbours
// merged again when freed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace icd {

class AreaAllocator {
 public:
  // 64 KiB: a multiple of every driver's import alignment we know of.
  static constexpr uint64_t kGranule = uint64_t{64} << 10;

  explicit AreaAllocator(uint64_t area_bytes);

  // The offset of `bytes` (rounded up to the granule), or nullopt when no
  // free range is large enough.
  std::optional<uint64_t> allocate(uint64_t bytes);
  // Frees what allocate() returned at `offset`; unknown offsets are ignored.
  void release(uint64_t offset);
  // The size allocate() gives `bytes`.
  static uint64_t rounded(uint64_t bytes) { return (bytes + kGranule - 1) / kGranule * kGranule; }

  uint64_t free_bytes() const;

 private:
  std::map<uint64_t, uint64_t> free_;  // offset -> size
  std::map<uint64_t, uint64_t> used_;  // offset -> size
};

}  // namespace icd
