// The wire layout of the glDrawElements family (guest-icd/gl/draw_entry.cpp
// writes it): u32 mode, i32 count, u32 type, i32 instances, i32 base vertex,
// u32 start, u32 end, Data indices (client bytes or an element buffer offset).
#pragma once

#include <epoxy/gl.h>

#include <cstddef>

#include "gl/read_args.h"
#include "wire/reader.h"
#include "wire/result.h"

namespace host {

struct ElementsDraw {
  GLenum mode = 0;
  GLsizei count = 0;
  GLenum type = 0;
  GLsizei instances = 1;
  GLint base_vertex = 0;
  GLuint start = 0, end = 0;
  wire::Data indices;
};

inline wire::Status read_elements_draw(wire::Reader& r, ElementsDraw& d) {
  WIRE_TRY(read_args(r, d.mode, d.count, d.type, d.instances, d.base_vertex, d.start, d.end));
  return read_data(r, d.indices);
}

// Bytes of one index; 0 for a type GL refuses.
inline size_t index_size(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE: return 1;
    case GL_UNSIGNED_SHORT: return 2;
    case GL_UNSIGNED_INT: return 4;
    default: return 0;
  }
}

}  // namespace host
