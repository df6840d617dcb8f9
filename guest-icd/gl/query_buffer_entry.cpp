// Query results. With a buffer bound to GL_QUERY_BUFFER (OpenGL 4.4),
// `params` is an offset into that buffer, not the program's memory: the
// host writes the result there itself through the by-name form
// (glGetQueryBufferObject*, OpenGL 4.5), and nothing comes back. Otherwise
// the result is asked for and copied into the program's memory.
#include <cstdint>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"
#include "wire/sizes.h"

namespace icd {
namespace {

constexpr GLenum kQueryBuffer = 0x9192;

template <typename T, typename Ask, typename IntoBuffer>
void get_query_object(GLuint id, GLenum pname, T* params, Ask ask, IntoBuffer into_buffer) {
  Stream* s = current_stream();
  if (!s) return;
  if (const GLuint buffer = s->gl_state().bound_buffer(kQueryBuffer)) {
    const auto offset = static_cast<GLintptr>(reinterpret_cast<uintptr_t>(params));
    into_buffer(s->writer(), id, buffer, pname, offset);
    s->commit();
    return;
  }
  ask(s->writer(), id, pname);
  auto reply = s->roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  copy_reply(r, params, wire::size::pname_values(pname) * sizeof(T));
}

}  // namespace

void GLAPIENTRY handle_glGetQueryObjectiv(GLuint id, GLenum pname, GLint* params) {
  get_query_object(id, pname, params, wire::encode_glGetQueryObjectiv,
                   wire::encode_glGetQueryBufferObjectiv);
}

void GLAPIENTRY handle_glGetQueryObjectuiv(GLuint id, GLenum pname, GLuint* params) {
  get_query_object(id, pname, params, wire::encode_glGetQueryObjectuiv,
                   wire::encode_glGetQueryBufferObjectuiv);
}

void GLAPIENTRY handle_glGetQueryObjecti64v(GLuint id, GLenum pname, GLint64* params) {
  get_query_object(id, pname, params, wire::encode_glGetQueryObjecti64v,
                   wire::encode_glGetQueryBufferObjecti64v);
}

void GLAPIENTRY handle_glGetQueryObjectui64v(GLuint id, GLenum pname, GLuint64* params) {
  get_query_object(id, pname, params, wire::encode_glGetQueryObjectui64v,
                   wire::encode_glGetQueryBufferObjectui64v);
}

}  // namespace icd
