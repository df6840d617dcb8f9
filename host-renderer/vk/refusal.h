// How the host refuses a guest's command, and the arithmetic of ranges it
// checks with (a range is refused before it can overflow).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "wire/result.h"

namespace host::vk {

inline wire::Error refused(std::string_view command, std::string_view why) {
  return wire::make_error(wire::Errc::kBadValue, std::string(command) + " " + std::string(why));
}

// [offset, offset + size) lies within [0, total).
inline bool fits(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

// The bytes `count` records `stride` apart reach from `offset`, the last
// one `size` bytes long; false when that overflows.
inline bool strided_reach(uint64_t offset, uint64_t count, uint64_t stride, uint64_t size, uint64_t* reach) {
  if (count == 0) {
    *reach = offset;
    return true;
  }
  uint64_t r = 0;
  return !__builtin_mul_overflow(count - 1, stride, &r) && !__builtin_add_overflow(r, size, &r) &&
         !__builtin_add_overflow(r, offset, reach);
}

}  // namespace host::vk
