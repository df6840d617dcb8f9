// GL_EXT_vertex_array: the client-array pointers of OpenGL 1.1 with a vertex
// count GL does not use (the arrays are read at draw time as in 1.1). Each is
// the core command; the rest of the extension routes to core by alias.
#include "gl/gl_handlers.h"

namespace icd {

void GLAPIENTRY handle_glVertexPointerEXT(GLint size, GLenum type, GLsizei stride, GLsizei,
                                          const void* pointer) {
  handle_glVertexPointer(size, type, stride, pointer);
}

void GLAPIENTRY handle_glNormalPointerEXT(GLenum type, GLsizei stride, GLsizei, const void* pointer) {
  handle_glNormalPointer(type, stride, pointer);
}

void GLAPIENTRY handle_glColorPointerEXT(GLint size, GLenum type, GLsizei stride, GLsizei,
                                         const void* pointer) {
  handle_glColorPointer(size, type, stride, pointer);
}

void GLAPIENTRY handle_glIndexPointerEXT(GLenum type, GLsizei stride, GLsizei, const void* pointer) {
  handle_glIndexPointer(type, stride, pointer);
}

void GLAPIENTRY handle_glTexCoordPointerEXT(GLint size, GLenum type, GLsizei stride, GLsizei,
                                            const void* pointer) {
  handle_glTexCoordPointer(size, type, stride, pointer);
}

void GLAPIENTRY handle_glEdgeFlagPointerEXT(GLsizei stride, GLsizei, const GLboolean* pointer) {
  handle_glEdgeFlagPointer(stride, pointer);
}

}  // namespace icd
