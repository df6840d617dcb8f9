// GL's errors for buffer maps, judged in the guest: a write-only map does
// not reach the host until the program unmaps or flushes it, so the errors
// GL raises at the map must be raised here (OpenGL 4.6 and ES 3.2, 6.3).
#pragma once

#include <cstdint>

#include "wire/gl_types.h"

namespace icd {

// What the guest knows of the buffer a map names.
struct MapTarget {
  bool mapped = false;  // the buffer is mapped already
  int64_t size = -1;    // its size, -1 when the guest does not know it
};

// The error glMapBufferRange or glMapNamedBufferRange raises for these
// arguments, or 0 (GL_NO_ERROR) when GL maps the range.
GLenum map_range_error(int64_t offset, int64_t length, GLbitfield access, MapTarget buffer);

// glMapBuffer's access enum as glMapBufferRange's bits, 0 for an enum GL
// refuses (GL_INVALID_ENUM).
GLbitfield map_access_bits(GLenum access);

}  // namespace icd
