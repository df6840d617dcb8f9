// GL's errors for vertex attribute pointers the guest keeps: a client
// array reaches the host only with a draw, so the errors GL raises when the
// pointer is set must be raised here (OpenGL 4.6, 10.3.2).
#pragma once

#include <cstdint>

#include "gl/gl_state.h"

namespace icd {

// The arguments of glVertexAttrib{,I,L}Pointer (the function by `format`).
struct AttribPointer {
  AttribFormat format;
  GLuint index;
  GLint size;
  GLenum type;
  GLboolean normalized;
  GLsizei stride;
};

// The error GL raises for `p`, or 0 when GL takes it. `max_attribs`:
// GL_MAX_VERTEX_ATTRIBS; `desktop`: desktop GL, whose sizes include GL_BGRA
// (GL_ARB_vertex_array_bgra).
GLenum attrib_pointer_error(const AttribPointer& p, GLint max_attribs, bool desktop);

// The errors of desktop GL's fixed-function pointers (glColorPointer...)
// that depend on no other state: GL_FIXED, a negative stride, and GL_BGRA
// (GL_ARB_vertex_array_bgra), a size of the two colour arrays only, of
// unsigned bytes or packed 2_10_10_10 values. 0 when GL takes them.
GLenum fixed_function_pointer_error(bool colour_array, GLint size, GLenum type, GLsizei stride);

}  // namespace icd
