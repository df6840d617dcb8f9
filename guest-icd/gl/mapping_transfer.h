// Moving a mapping's bytes between the guest's shadow and the host's buffer
// (wire layouts in host-renderer/gl/buffer_handlers.cpp): a mapping made by
// name, or persistent, reaches its buffer by name; any other through the
// binding it was made with.
#pragma once

#include <cstdint>

#include "gl/gl_state.h"
#include "icd/stream.h"

namespace icd {

// Sends [offset, offset + length) of m's shadow into the host's buffer.
void send_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, GLbitfield access);
// Reads [offset, offset + length) of the host's buffer into `out` (a round
// trip); false when the host did not answer.
bool read_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, std::byte* out);

}  // namespace icd
