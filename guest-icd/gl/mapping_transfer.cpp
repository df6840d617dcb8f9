#include "gl/mapping_transfer.h"

#include <algorithm>

#include "gl/entry_support.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {
namespace {

// Encodes a map command of `phase` (0: read the range, 1: write `bytes`
// into it). A persistent mapping is reached by name through
// glMapBufferRange, which every context with persistent mappings has
// (phases 2 and 3), and read through a copy: programs read their write-only
// mappings too, whose storage the host may not map for reading.
void encode_map(wire::Writer& w, const Mapping& m, uint32_t phase, int64_t offset, int64_t length,
                GLbitfield access, const std::byte* bytes) {
  const size_t n = bytes ? static_cast<size_t>(length) : 0;
  if (m.buffer != 0 && !m.persistent()) {
    wire::encode_glMapNamedBufferRange(w, phase, m.buffer, offset, length, access, bytes, n);
  } else {
    wire::encode_glMapBufferRange(w, m.persistent() ? phase + 2 : phase, m.buffer ? m.buffer : m.target,
                                  offset, length, access, bytes, n);
  }
}

// Calls piece(offset, length) for each piece of [offset, offset + length).
template <typename Piece>
bool in_pieces(int64_t offset, int64_t length, Piece piece) {
  for (int64_t at = 0; at < length; at += kMapPieceBytes) {
    if (!piece(offset + at, std::min(kMapPieceBytes, length - at))) return false;
  }
  return true;
}

void encode_piece(wire::Writer& w, const Mapping& m, int64_t offset, int64_t length,
                  GLbitfield access) {
  encode_map(w, m, 1, m.offset + offset, length, access, m.shadow.data() + offset);
}

}  // namespace

void encode_range(wire::Writer& w, const Mapping& m, int64_t offset, int64_t length,
                  GLbitfield access) {
  in_pieces(offset, length, [&](int64_t o, int64_t l) {
    encode_piece(w, m, o, l, access);
    return true;
  });
}

void send_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, GLbitfield access) {
  in_pieces(offset, length, [&](int64_t o, int64_t l) {
    encode_piece(s.writer(), m, o, l, access);
    s.commit();
    return true;
  });
}

bool read_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, std::byte* out) {
  return in_pieces(offset, length, [&](int64_t o, int64_t l) {
    encode_map(s.writer(), m, 0, m.offset + o, l, m.access, nullptr);
    wire::Reply_glMapBufferRange got;  // also glMapNamedBufferRange's
    if (!await_reply(s, got, wire::decode_reply_glMapBufferRange)) return false;
    copy_data(got.bytes, out + (o - offset), static_cast<size_t>(l));
    return true;
  });
}

}  // namespace icd
