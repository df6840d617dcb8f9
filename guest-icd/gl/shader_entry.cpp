// Shaders and programs: the guest chooses their names; sources travel as
// lists of strings, and so do the named strings shaders include
// (GL_ARB_shading_language_include). Wire layouts and replies:
// wire-protocol/annotations.toml [layouts] and [replies].
#include <algorithm>
#include <cstring>
#include <vector>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/control.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {
namespace {

// A name or string of `length` bytes, or NUL-terminated when negative.
size_t counted_bytes(const GLchar* text, GLint length) {
  if (!text) return 0;
  return length >= 0 ? static_cast<size_t>(length) : std::strlen(text);
}

// Strings as a list of Data: where each starts and its bytes. `lengths`
// (optional, negative for NUL-terminated ones) gives the bytes of each;
// without, each is sent with its terminator.
struct StringList {
  std::vector<const void*> at;
  std::vector<size_t> bytes;

  StringList(GLsizei count, const GLchar* const* strings, const GLint* lengths, bool nul) {
    for (GLsizei i = 0; i < count; ++i) {
      const GLchar* s = strings && strings[i] ? strings[i] : "";
      at.push_back(s);
      const GLint length = lengths ? lengths[i] : -1;
      bytes.push_back(counted_bytes(s, length) + (nul && length < 0 ? 1 : 0));
    }
  }
};

// GL_INVALID_VALUE for a negative count, or no strings for a positive one,
// raised here: nothing travels (true: refused).
bool refused_count(Stream& s, GLsizei count, const void* strings) {
  if (s.gl_state().refused_negative(count)) return true;
  if (count == 0 || strings) return false;
  s.gl_state().raise_error(0x0501);
  return true;
}

// The name is allocated here; the host makes the object under it.
GLuint allocate(Stream& s, wire::ObjectType type) { return s.gl_state().names().allocate_one(type); }

}  // namespace

GLuint GLAPIENTRY handle_glCreateShader(GLenum type) {
  Stream* s = current_stream();
  if (!s) return 0;
  const GLuint name = allocate(*s, wire::ObjectType::kShader);
  wire::encode_glCreateShader(s->writer(), type, name);
  s->commit();
  return name;
}

GLuint GLAPIENTRY handle_glCreateProgram() {
  Stream* s = current_stream();
  if (!s) return 0;
  const GLuint name = allocate(*s, wire::ObjectType::kProgram);
  wire::encode_glCreateProgram(s->writer(), name);
  s->commit();
  return name;
}

void GLAPIENTRY handle_glShaderSource(GLuint shader, GLsizei count, const GLchar* const* string,
                                      const GLint* length) {
  Stream* s = current_stream();
  if (!s) return;
  // A name that is no shader GL refuses before it reads a string: it gets
  // none, and raises the error it finds for the name.
  if (!s->gl_state().names().shader_name(shader)) {
    wire::encode_glShaderSource(s->writer(), shader, 0, nullptr, nullptr);
    s->commit();
    return;
  }
  if (refused_count(*s, count, string)) return;
  const StringList list(count, string, length, false);
  wire::encode_glShaderSource(s->writer(), shader, count, list.at.data(), list.bytes.data());
  s->commit();
}

namespace {

using CreateProgramEncoder = void (*)(wire::Writer&, GLenum, GLuint, GLsizei, const void* const*,
                                      const size_t*);

GLuint create_shader_program(CreateProgramEncoder encode, GLenum type, GLsizei count,
                             const GLchar* const* strings) {
  Stream* s = current_stream();
  if (!s || refused_count(*s, count, strings)) return 0;
  const GLuint name = allocate(*s, wire::ObjectType::kProgram);
  // The host links it, and tells of it as of any link.
  if (s->host_offers(wire::kFeatureProgramReflection)) s->gl_state().programs().linking(name);
  const StringList list(count, strings, nullptr, true);
  encode(s->writer(), type, name, count, list.at.data(), list.bytes.data());
  s->commit();
  return name;
}

}  // namespace

GLuint GLAPIENTRY handle_glCreateShaderProgramv(GLenum type, GLsizei count,
                                                const GLchar* const* strings) {
  return create_shader_program(wire::encode_glCreateShaderProgramv, type, count, strings);
}

GLuint GLAPIENTRY handle_glCreateShaderProgramvEXT(GLenum type, GLsizei count,
                                                   const GLchar** strings) {
  return create_shader_program(wire::encode_glCreateShaderProgramvEXT, type, count, strings);
}

GLuint GLAPIENTRY handle_glCreateShaderProgramEXT(GLenum type, const GLchar* string) {
  return create_shader_program(wire::encode_glCreateShaderProgramEXT, type, 1, &string);
}

void GLAPIENTRY handle_glTransformFeedbackVaryings(GLuint program, GLsizei count,
                                                   const GLchar* const* varyings,
                                                   GLenum buffer_mode) {
  Stream* s = current_stream();
  if (!s || refused_count(*s, count, varyings)) return;
  const StringList list(count, varyings, nullptr, true);
  wire::encode_glTransformFeedbackVaryings(s->writer(), program, count, list.at.data(), buffer_mode,
                                           list.bytes.data());
  s->commit();
}

void GLAPIENTRY handle_glGetUniformIndices(GLuint program, GLsizei count,
                                           const GLchar* const* names, GLuint* indices) {
  Stream* s = current_stream();
  if (!s || refused_count(*s, count, names)) return;
  const StringList list(count, names, nullptr, true);
  wire::encode_glGetUniformIndices(s->writer(), program, count, list.at.data(), list.bytes.data());
  wire::Reply_glGetUniformIndices out;
  if (!await_reply(*s, out, wire::decode_reply_glGetUniformIndices)) return;
  copy_data(out.indices, indices, static_cast<size_t>(count) * sizeof(GLuint));
}

void GLAPIENTRY handle_glGetAttachedShaders(GLuint program, GLsizei max_count, GLsizei* count,
                                            GLuint* shaders) {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glGetAttachedShaders(s->writer(), program, max_count);
  wire::Reply_glGetAttachedShaders out;
  if (!await_reply(*s, out, wire::decode_reply_glGetAttachedShaders)) return;
  const size_t got = copy_data(out.shaders, shaders, static_cast<size_t>(std::max(max_count, 0)) * 4);
  if (count) *count = static_cast<GLsizei>(std::min<size_t>(got / 4, out.count));
}

void GLAPIENTRY handle_glNamedStringARB(GLenum type, GLint namelen, const GLchar* name, GLint stringlen,
                                        const GLchar* string) {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glNamedStringARB(s->writer(), type, name, string, counted_bytes(name, namelen),
                                counted_bytes(string, stringlen));
  s->commit();
}

void GLAPIENTRY handle_glDeleteNamedStringARB(GLint namelen, const GLchar* name) {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glDeleteNamedStringARB(s->writer(), name, counted_bytes(name, namelen));
  s->commit();
}

namespace {

// Sends a named-string query and decodes the host's reply into `out`;
// false when there is none (no context, the host gone) or it is malformed.
template <typename Encode, typename Reply>
bool ask_about_name(Encode encode, Reply& out, wire::Status (*decode)(wire::Reader&, Reply&)) {
  Stream* s = current_stream();
  if (!s) return false;
  encode(s->writer());
  return await_reply(*s, out, decode);
}

}  // namespace

GLboolean GLAPIENTRY handle_glIsNamedStringARB(GLint namelen, const GLchar* name) {
  wire::Reply_glIsNamedStringARB out;
  const bool answered = ask_about_name(
      [&](wire::Writer& w) { wire::encode_glIsNamedStringARB(w, name, counted_bytes(name, namelen)); }, out,
      wire::decode_reply_glIsNamedStringARB);
  return answered && out.named ? 1 : 0;
}

void GLAPIENTRY handle_glGetNamedStringARB(GLint namelen, const GLchar* name, GLsizei buf_size, GLint* stringlen,
                                           GLchar* string) {
  wire::Reply_glGetNamedStringARB out;
  const bool answered = ask_about_name(
      [&](wire::Writer& w) { wire::encode_glGetNamedStringARB(w, name, buf_size, counted_bytes(name, namelen)); }, out,
      wire::decode_reply_glGetNamedStringARB);
  if (!answered || out.length < 0) return;  // negative: GL wrote nothing
  if (stringlen) *stringlen = out.length;
  copy_data(out.string, string, static_cast<size_t>(std::max(buf_size, 0)));
}

void GLAPIENTRY handle_glGetNamedStringivARB(GLint namelen, const GLchar* name, GLenum pname, GLint* params) {
  wire::Reply_glGetNamedStringivARB out;
  const bool answered = ask_about_name(
      [&](wire::Writer& w) { wire::encode_glGetNamedStringivARB(w, name, pname, counted_bytes(name, namelen)); }, out,
      wire::decode_reply_glGetNamedStringivARB);
  if (answered && out.written && params) *params = out.value;
}

void GLAPIENTRY handle_glCompileShaderIncludeARB(GLuint shader, GLsizei count, const GLchar* const* path,
                                                 const GLint* length) {
  Stream* s = current_stream();
  if (!s || refused_count(*s, count, path)) return;
  const StringList list(count, path, length, false);
  wire::encode_glCompileShaderIncludeARB(s->writer(), shader, count, list.at.data(), list.bytes.data());
  s->commit();
}

}  // namespace icd
