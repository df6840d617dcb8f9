#include "gl/draw_limits.h"

#include <cstring>

#include "gl/elements_draw.h"
#include "wire/gl_decode.h"
#include "wire/gl_opcodes.h"

namespace host {
namespace {

using wire::GlOp;

// Vertices processed by `count` vertices drawn `instances` times; negative
// values are GL's errors and draw nothing.
uint64_t vertices(int64_t count, int64_t instances) {
  if (count <= 0 || instances <= 0) return 0;
  return static_cast<uint64_t>(count) * static_cast<uint64_t>(instances);
}

wire::Result<uint64_t> multi_draw_vertices(wire::Reader& r) {
  wire::Args_glMultiDrawArrays a{};
  WIRE_TRY(wire::decode_glMultiDrawArrays(r, a));
  uint64_t total = 0;
  const size_t n = a.drawcount > 0 ? static_cast<size_t>(a.drawcount) : 0;
  for (size_t i = 0; i < n && (i + 1) * sizeof(GLsizei) <= a.count.bytes.size(); ++i) {
    GLsizei count = 0;
    std::memcpy(&count, a.count.bytes.data() + i * sizeof count, sizeof count);
    total += vertices(count, 1);
  }
  return total;
}

// The vertices a draw processes; 0 for commands that are not draws.
wire::Result<uint64_t> draw_vertices(uint32_t opcode, wire::Reader& r) {
  switch (static_cast<GlOp>(opcode)) {
    case GlOp::glDrawArrays: {
      wire::Args_glDrawArrays a{};
      WIRE_TRY(wire::decode_glDrawArrays(r, a));
      return vertices(a.count, 1);
    }
    case GlOp::glDrawArraysInstanced: case GlOp::glDrawArraysInstancedBaseInstance: {
      // Both start with mode, first, count, instance count.
      wire::Args_glDrawArraysInstanced a{};
      WIRE_TRY(wire::decode_glDrawArraysInstanced(r, a));
      return vertices(a.count, a.instancecount);
    }
    case GlOp::glMultiDrawArrays:
      return multi_draw_vertices(r);
    default:
      break;
  }
  if (is_multi_elements_draw(opcode)) {
    MultiElementsDraw d;
    WIRE_TRY(read_multi_elements_draw(r, false, d));
    uint64_t total = 0;
    for (GLsizei count : d.counts) total += vertices(count, 1);
    return total;
  }
  if (!is_elements_draw(opcode)) return uint64_t{0};
  ElementsDraw d;
  WIRE_TRY(read_elements_scalars(r, d));  // the indices are the handler's to read
  return vertices(d.count, d.instances);
}

}  // namespace

wire::Result<bool> draw_within_limit(uint64_t max_vertices, uint32_t opcode, wire::Reader r) {
  auto n = draw_vertices(opcode, r);
  if (!n) return n.error();
  return *n <= max_vertices;
}

}  // namespace host
