#include "conn/changed_ranges.h"

#include <algorithm>
#include <cstring>

namespace icd {

std::vector<ByteRange> changed_ranges(const std::byte* now, const std::byte* before, size_t size,
                                      size_t block) {
  std::vector<ByteRange> out;
  for (size_t at = 0; at < size; at += block) {
    const size_t n = std::min(block, size - at);
    if (std::memcmp(now + at, before + at, n) == 0) continue;
    if (!out.empty() && out.back().offset + out.back().length == at) {
      out.back().length += n;
    } else {
      out.push_back({at, n});
    }
  }
  return out;
}

}  // namespace icd
