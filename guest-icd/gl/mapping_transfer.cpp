#include "gl/mapping_transfer.h"

#include <algorithm>

#include "gl/entry_support.h"

namespace icd {
namespace {

// Starts a map command of `phase` (0: read the range, 1: write it). A
// persistent mapping is reached by name through glMapBufferRange, which every
// context with persistent mappings has (phases 2 and 3), and read through a
// copy: programs read their write-only mappings too, whose storage the host
// may not map for reading.
size_t begin_map(wire::Writer& w, const Mapping& m, uint32_t phase, int64_t offset, int64_t length,
                 GLbitfield access) {
  const bool by_name = m.buffer != 0 && !m.persistent();
  size_t start = w.begin(static_cast<uint32_t>(by_name ? wire::GlOp::glMapNamedBufferRange
                                                       : wire::GlOp::glMapBufferRange));
  w.put(m.persistent() ? phase + 2 : phase);
  w.put(m.buffer ? m.buffer : static_cast<uint32_t>(m.target));
  w.put(offset);
  w.put(length);
  w.put(static_cast<uint32_t>(access));
  return start;
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
  size_t start = begin_map(w, m, 1, m.offset + offset, length, access);
  w.put_data(m.shadow.data() + offset, static_cast<size_t>(length));
  w.end(start);
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
    auto reply = finish_and_wait(s, begin_map(s.writer(), m, 0, m.offset + o, l, m.access));
    if (!reply) return false;
    wire::Reader r(*reply, 0);
    copy_reply(r, out + (o - offset), static_cast<size_t>(l));
    return true;
  });
}

}  // namespace icd
