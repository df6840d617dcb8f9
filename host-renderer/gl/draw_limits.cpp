#include "gl/draw_limits.h"

#include <epoxy/gl.h>

#include <cstring>

#include "gl/command_facts.h"
#include "gl/elements_draw.h"
#include "wire/gl_decode.h"
#include "wire/gl_opcodes.h"

namespace host {
namespace {

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

wire::Result<uint64_t> elements_vertices(wire::Reader& r) {
  ElementsDraw d;
  WIRE_TRY(read_elements_draw(r, d));
  return vertices(d.count, d.instances);
}

wire::Result<uint64_t> multi_elements_vertices(wire::Reader& r) {
  MultiElementsDraw d;
  WIRE_TRY(read_multi_elements_draw(r, d));
  uint64_t total = 0;
  for (GLsizei count : d.counts) total += vertices(count, 1);
  return total;
}

// The vertices a draw processes; 0 for commands that are not draws and for
// draws whose counts the wire does not carry.
wire::Result<uint64_t> draw_vertices(uint32_t opcode, wire::Reader& r) {
  switch (draw_kind(opcode)) {
    case wire::GlDraw::kArrays: {
      if (opcode == static_cast<uint32_t>(wire::GlOp::glDrawArrays)) {
        wire::Args_glDrawArrays a{};
        WIRE_TRY(wire::decode_glDrawArrays(r, a));
        return vertices(a.count, 1);
      }
      // The instanced forms start with mode, first, count, instance count.
      wire::Args_glDrawArraysInstanced a{};
      WIRE_TRY(wire::decode_glDrawArraysInstanced(r, a));
      return vertices(a.count, a.instancecount);
    }
    case wire::GlDraw::kMultiArrays: return multi_draw_vertices(r);
    case wire::GlDraw::kElements: return elements_vertices(r);
    case wire::GlDraw::kMultiElements: return multi_elements_vertices(r);
    default: return uint64_t{0};
  }
}

}  // namespace

wire::Result<bool> draw_within_limit(uint64_t max_vertices, uint32_t opcode, wire::Reader r) {
  auto n = draw_vertices(opcode, r);
  if (!n) return n.error();
  return *n <= max_vertices;
}

}  // namespace host
