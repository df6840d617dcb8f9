// The wire layout of the glDrawElements family (guest-icd/gl/draw_entry.cpp
// writes it): u32 mode, i32 count, u32 type, i32 instances, i32 base vertex,
// u32 start, u32 end, Data indices (client bytes or an element buffer offset);
// the base-instance forms add u32 base instance.
#pragma once

#include <epoxy/gl.h>

#include <cstddef>

#include "gl/read_args.h"
#include "wire/gl_opcodes.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/sizes.h"  // index_bytes: what GL reads of the indices

namespace host {

struct ElementsDraw {
  GLenum mode = 0;
  GLsizei count = 0;
  GLenum type = 0;
  GLsizei instances = 1;
  GLint base_vertex = 0;
  GLuint start = 0, end = 0;
  wire::Data indices;
  GLuint base_instance = 0;
};

// Whether command `opcode` is of the family (all laid out as above).
inline bool is_elements_draw(uint32_t opcode) {
  switch (static_cast<wire::GlOp>(opcode)) {
    case wire::GlOp::glDrawElements: case wire::GlOp::glDrawElementsInstanced:
    case wire::GlOp::glDrawRangeElements: case wire::GlOp::glDrawElementsBaseVertex:
    case wire::GlOp::glDrawRangeElementsBaseVertex: case wire::GlOp::glDrawElementsInstancedBaseVertex:
    case wire::GlOp::glDrawElementsInstancedBaseInstance:
    case wire::GlOp::glDrawElementsInstancedBaseVertexBaseInstance:
      return true;
    default:
      return false;
  }
}

// Everything but the indices: what a draw asks for, without touching them.
inline wire::Status read_elements_scalars(wire::Reader& r, ElementsDraw& d) {
  return read_args(r, d.mode, d.count, d.type, d.instances, d.base_vertex, d.start, d.end);
}

inline wire::Status read_elements_draw(wire::Reader& r, ElementsDraw& d) {
  WIRE_TRY(read_elements_scalars(r, d));
  return read_data(r, d.indices);
}

inline wire::Status read_base_instance_draw(wire::Reader& r, ElementsDraw& d) {
  WIRE_TRY(read_elements_draw(r, d));
  return read_args(r, d.base_instance);
}

}  // namespace host
