// Shaders and programs: the guest chooses their names; sources travel as
// arrays of strings. Wire layouts: host-renderer/gl/shader_handlers.cpp.
#include <cstring>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"

namespace icd {
namespace {

// Writes `count` NUL-terminated strings, each as a Data.
void put_strings(wire::Writer& w, GLsizei count, const GLchar* const* strings) {
  for (GLsizei i = 0; i < count; ++i) {
    const GLchar* s = strings && strings[i] ? strings[i] : "";
    w.put_data(s, std::strlen(s) + 1);
  }
}

GLuint create_named(wire::GlOp op, wire::ObjectType type, const GLenum* shader_type) {
  Stream* s = current_stream();
  if (!s) return 0;
  const GLuint name = s->gl_state().names().allocate_one(type);
  size_t cmd = begin(*s, op);
  if (shader_type) s->writer().put(static_cast<uint32_t>(*shader_type));
  s->writer().put(name);
  finish(*s, cmd);
  return name;
}

}  // namespace

GLuint GLAPIENTRY handle_glCreateShader(GLenum type) {
  return create_named(wire::GlOp::glCreateShader, wire::ObjectType::kShader, &type);
}

GLuint GLAPIENTRY handle_glCreateProgram() {
  return create_named(wire::GlOp::glCreateProgram, wire::ObjectType::kProgram, nullptr);
}

void GLAPIENTRY handle_glShaderSource(GLuint shader, GLsizei count, const GLchar* const* string,
                                      const GLint* length) {
  Stream* s = current_stream();
  if (!s || count < 0 || !string) return;
  size_t cmd = begin(*s, wire::GlOp::glShaderSource);
  auto& w = s->writer();
  w.put(shader);
  w.put(static_cast<int32_t>(count));
  for (GLsizei i = 0; i < count; ++i) {
    const GLchar* src = string[i] ? string[i] : "";
    const size_t len = length && length[i] >= 0 ? static_cast<size_t>(length[i]) : std::strlen(src);
    w.put_data(src, len);
  }
  finish(*s, cmd);
}

namespace {

// The program's name is allocated here; the host makes it under that name.
GLuint create_shader_program(wire::GlOp op, GLenum type, GLsizei count, const GLchar* const* strings) {
  Stream* s = current_stream();
  if (!s || count < 0) return 0;
  const GLuint name = s->gl_state().names().allocate_one(wire::ObjectType::kProgram);
  size_t cmd = begin(*s, op);
  auto& w = s->writer();
  w.put(static_cast<uint32_t>(type));
  w.put(name);
  w.put(static_cast<int32_t>(count));
  put_strings(w, count, strings);
  finish(*s, cmd);
  return name;
}

}  // namespace

GLuint GLAPIENTRY handle_glCreateShaderProgramv(GLenum type, GLsizei count,
                                                const GLchar* const* strings) {
  return create_shader_program(wire::GlOp::glCreateShaderProgramv, type, count, strings);
}

GLuint GLAPIENTRY handle_glCreateShaderProgramvEXT(GLenum type, GLsizei count,
                                                   const GLchar** strings) {
  return create_shader_program(wire::GlOp::glCreateShaderProgramvEXT, type, count, strings);
}

GLuint GLAPIENTRY handle_glCreateShaderProgramEXT(GLenum type, const GLchar* string) {
  return create_shader_program(wire::GlOp::glCreateShaderProgramEXT, type, 1, &string);
}

void GLAPIENTRY handle_glTransformFeedbackVaryings(GLuint program, GLsizei count,
                                                   const GLchar* const* varyings,
                                                   GLenum buffer_mode) {
  Stream* s = current_stream();
  if (!s || count < 0) return;
  size_t cmd = begin(*s, wire::GlOp::glTransformFeedbackVaryings);
  auto& w = s->writer();
  w.put(program);
  w.put(static_cast<int32_t>(count));
  put_strings(w, count, varyings);
  w.put(static_cast<uint32_t>(buffer_mode));
  finish(*s, cmd);
}

void GLAPIENTRY handle_glGetUniformIndices(GLuint program, GLsizei count,
                                           const GLchar* const* names, GLuint* indices) {
  Stream* s = current_stream();
  if (!s || count < 0) return;
  size_t cmd = begin(*s, wire::GlOp::glGetUniformIndices);
  auto& w = s->writer();
  w.put(program);
  w.put(static_cast<int32_t>(count));
  put_strings(w, count, names);
  auto reply = finish_and_wait(*s, cmd);
  if (!reply) return;
  wire::Reader r(*reply, 0);
  copy_reply(r, indices, static_cast<size_t>(count) * sizeof(GLuint));
}

void GLAPIENTRY handle_glGetAttachedShaders(GLuint program, GLsizei max_count, GLsizei* count,
                                            GLuint* shaders) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin(*s, wire::GlOp::glGetAttachedShaders);
  s->writer().put(program);
  s->writer().put(static_cast<int32_t>(max_count));
  auto reply = finish_and_wait(*s, cmd);
  if (!reply) return;
  wire::Reader r(*reply, 0);
  auto n = r.get<int32_t>();
  const size_t got = copy_reply(r, shaders, static_cast<size_t>(std::max(max_count, 0)) * 4);
  if (count) *count = n ? static_cast<GLsizei>(std::min<size_t>(got / 4, *n)) : 0;
}

}  // namespace icd
