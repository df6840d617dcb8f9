// glGet* and glGetError: answers the host sizes or adds to itself; names of
// bound objects go back as the guest's names.
#include <epoxy/gl.h>

#include <type_traits>

#include "gl/bound_names.h"
#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "wire/gl_replies.h"

namespace host {
namespace {

// glGet pnames whose value count is another piece of host state.
size_t get_value_count(GLenum pname) {
  GLenum count_pname = 0;
  switch (pname) {
    case GL_COMPRESSED_TEXTURE_FORMATS: count_pname = GL_NUM_COMPRESSED_TEXTURE_FORMATS; break;
    case GL_PROGRAM_BINARY_FORMATS: count_pname = GL_NUM_PROGRAM_BINARY_FORMATS; break;
    case GL_SHADER_BINARY_FORMATS: count_pname = GL_NUM_SHADER_BINARY_FORMATS; break;
    default: return wire::size::pname_values(pname);
  }
  GLint count = 0;
  glGetIntegerv(count_pname, &count);
  return wire::size::nonnegative(count);
}

// GL_DOUBLEBUFFER of desktop GL's default framebuffer: the guest window's,
// not the host pbuffer's (a framebuffer object has one buffer).
template <typename T>
void answer_double_buffer(GlContextState::Impl& st, GLenum pname, T* value) {
  if (pname != GL_DOUBLEBUFFER || st.gles) return;
  GLint draw_framebuffer = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_framebuffer);
  if (draw_framebuffer == 0) *value = static_cast<T>(st.draws_double_buffered ? 1 : 0);
}

template <typename T, typename Fn>
wire::Status reply_get(DispatchEnv& env, GLenum pname, Fn get) {
  auto out = output_array(env, get_value_count(pname), sizeof(T), wire::size::kMaxEnumValues);
  if (!out) return out.error();
  if (out->refused) return refused_reply(env, 1);
  get(pname, static_cast<T*>(out->data));
  if (out->bytes >= sizeof(T)) answer_double_buffer(env.state.impl(), pname, static_cast<T*>(out->data));
  if constexpr (std::is_integral_v<T> && sizeof(T) >= 4) {
    answer_guest_name(env.state.impl(), pname, static_cast<T*>(out->data), out->bytes / sizeof(T));
  }
  wire::encode_reply_glGetIntegerv(env.reply, out->data, out->bytes);  // every glGet*v's reply
  return {};
}

}  // namespace

wire::Status handle_glGetError(DispatchEnv& env, wire::Args_glGetError&) {
  auto& st = env.state.impl();
  GLenum error = st.refused_error != GL_NO_ERROR ? st.refused_error : glGetError();
  st.refused_error = GL_NO_ERROR;
  env.reply.put(error);
  return {};
}

wire::Status handle_glGetIntegerv(DispatchEnv& env, wire::Args_glGetIntegerv& a) {
  return reply_get<GLint>(env, a.pname, [](GLenum p, GLint* v) { glGetIntegerv(p, v); });
}

wire::Status handle_glGetFloatv(DispatchEnv& env, wire::Args_glGetFloatv& a) {
  return reply_get<GLfloat>(env, a.pname, [](GLenum p, GLfloat* v) { glGetFloatv(p, v); });
}

wire::Status handle_glGetBooleanv(DispatchEnv& env, wire::Args_glGetBooleanv& a) {
  return reply_get<GLboolean>(env, a.pname, [](GLenum p, GLboolean* v) { glGetBooleanv(p, v); });
}

wire::Status handle_glGetDoublev(DispatchEnv& env, wire::Args_glGetDoublev& a) {
  return reply_get<GLdouble>(env, a.pname, [](GLenum p, GLdouble* v) { glGetDoublev(p, v); });
}

wire::Status handle_glGetInteger64v(DispatchEnv& env, wire::Args_glGetInteger64v& a) {
  return reply_get<GLint64>(env, a.pname, [](GLenum p, GLint64* v) { glGetInteger64v(p, v); });
}

}  // namespace host
