// A file mapped whole, so that bytes inside the mapping can be handed to
// a third process by offset instead of copied.
#pragma once

#include <cstddef>
#include <span>

namespace wire {

// Mapped from offset 0 at `base`.
struct MappedFile {
  int fd = -1;  // -1: none
  const std::byte* base = nullptr;
  size_t size = 0;
  bool holds(std::span<const std::byte> bytes) const {
    return fd >= 0 && bytes.data() >= base && bytes.size() <= size &&
           static_cast<size_t>(bytes.data() - base) <= size - bytes.size();
  }
};

}  // namespace wire
