// GL's errors for vertex attribute pointers the guest keeps: a client
// array reaches the host only with a draw, so the errors GL raises when the
// pointer is set must be raised here (OpenGL 4.6, 10.3.2).
#pragma once

#include <cstdint>

#include "gl/gl_state.h"

namespace icd {

// The error glVertexAttrib{,I,L}Pointer raises for these arguments (the
// function by `format`), or 0 when GL takes them. `max_attribs`:
// GL_MAX_VERTEX_ATTRIBS.
GLenum attrib_pointer_error(AttribFormat format, GLuint index, GLint max_attribs, GLint size,
                            GLenum type, GLsizei stride);

}  // namespace icd
