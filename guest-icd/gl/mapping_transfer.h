// Moving a mapping's bytes between the guest's shadow and the host's buffer
// (wire layouts in host-renderer/gl/buffer_handlers.cpp): a mapping made by
// name reaches its buffer by name, a persistent one by name through
// glMapBufferRange, any other through the binding it was made with. Ranges
// travel in pieces of at most kMapPieceBytes, one command each.
#pragma once

#include <cstdint>

#include "gl/gl_state.h"
#include "icd/stream.h"
#include "wire/writer.h"

namespace icd {

inline constexpr int64_t kMapPieceBytes = 4 << 20;

// Encodes [offset, offset + length) of m's shadow for the host's buffer.
void encode_range(wire::Writer& w, const Mapping& m, int64_t offset, int64_t length,
                  GLbitfield access);
// The same as commands of the stream.
void send_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, GLbitfield access);
// Reads [offset, offset + length) of the host's buffer into `out` (a round
// trip a piece); false when the host did not answer.
bool read_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, std::byte* out);

}  // namespace icd
