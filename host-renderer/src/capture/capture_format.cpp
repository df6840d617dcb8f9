#include "host/capture_format.h"

#include <xxhash.h>

namespace host::capture {

uint64_t frame_hash(const wire::Frame& frame, std::span<const std::byte> pixels) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  const uint32_t size[2] = {frame.width, frame.height};
  XXH3_64bits_update(state, size, sizeof size);
  const size_t row = size_t{frame.width} * 4;
  for (uint32_t y = 0; y < frame.height; ++y) {
    const size_t at = size_t{y} * frame.stride;
    if (at > pixels.size() || pixels.size() - at < row) break;  // a short frame hashes what it has
    XXH3_64bits_update(state, pixels.data() + at, row);
  }
  const uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return hash;
}

uint64_t payload_checksum(std::span<const std::byte> payload) { return XXH3_64bits(payload.data(), payload.size()); }

}  // namespace host::capture
