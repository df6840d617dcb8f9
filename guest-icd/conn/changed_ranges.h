// Which parts of a block of memory changed since a copy of it was taken:
// memory the program writes directly (a persistent GL mapping) reaches the
// host as these ranges only.
#pragma once

#include <cstddef>
#include <vector>

namespace icd {

struct ByteRange {
  size_t offset = 0;
  size_t length = 0;
};

// The ranges where `now` and `before` (both `size` bytes) differ, compared in
// blocks of `block` bytes; neighbouring changed blocks make one range.
std::vector<ByteRange> changed_ranges(const std::byte* now, const std::byte* before, size_t size,
                                      size_t block = 256);

}  // namespace icd
