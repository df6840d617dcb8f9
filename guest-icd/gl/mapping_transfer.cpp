#include "gl/mapping_transfer.h"

#include "gl/entry_support.h"

namespace icd {
namespace {

// Starts a map command of `phase` (0: read the range, 1: write it). A
// persistent mapping is reached by name through glMapBufferRange, which every
// context with persistent mappings has (phases 2 and 3), and read through a
// copy: programs read their write-only mappings too, whose storage the host
// may not map for reading.
size_t begin_map(Stream& s, const Mapping& m, uint32_t phase, int64_t offset, int64_t length,
                 GLbitfield access) {
  const bool by_name = m.buffer != 0 && !m.persistent();
  size_t start = begin(s, by_name ? wire::GlOp::glMapNamedBufferRange : wire::GlOp::glMapBufferRange);
  auto& w = s.writer();
  w.put(m.persistent() ? phase + 2 : phase);
  w.put(m.buffer ? m.buffer : static_cast<uint32_t>(m.target));
  w.put(offset);
  w.put(length);
  w.put(static_cast<uint32_t>(access));
  return start;
}

}  // namespace

void send_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, GLbitfield access) {
  if (length <= 0) return;
  size_t start = begin_map(s, m, 1, m.offset + offset, length, access);
  s.writer().put_data(m.shadow.data() + offset, static_cast<size_t>(length));
  finish(s, start);
}

bool read_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, std::byte* out) {
  auto reply = finish_and_wait(s, begin_map(s, m, 0, m.offset + offset, length, m.access));
  if (!reply) return false;
  wire::Reader r(*reply, 0);
  copy_reply(r, out, static_cast<size_t>(length));
  return true;
}

}  // namespace icd
