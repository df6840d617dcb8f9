// Program queries answered from what the host told of a program's last
// link (gl/program_reflections.h), and the commands after which what it
// told no longer holds. Anything the guest is not sure of goes to the host
// as generated: the same command, the same reply.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "gl/program_names.h"
#include "gl/program_reflections.h"
#include "wire/control.h"
#include "wire/gl_encode.h"
#include "wire/sizes.h"

namespace icd {
namespace {

bool reflecting(Stream& s) { return s.host_offers(wire::kFeatureProgramReflection); }

// What the host told of `program`'s last link, when the guest may answer
// from it now: not on a lost context (every call fails there), nor between
// glBegin and glEnd (GL refuses queries there).
std::shared_ptr<const wire::ProgramReflection> told(Stream& s, GLuint program) {
  if (!reflecting(s) || s.lost() || s.gl_state().primitive().open) return nullptr;
  return s.gl_state().programs().find(program);
}

// Writes `text` as GL writes a string into `buf_size` bytes (> 0): as much
// as fits with its NUL, and its length without.
void write_string(const std::string& text, GLsizei buf_size, GLsizei* length, GLchar* out) {
  const size_t n = std::min(text.size(), static_cast<size_t>(buf_size) - 1);
  if (out) {
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
  }
  if (length) *length = static_cast<GLsizei>(n);
}

template <typename Encode>
void send_after(Stream& s, Encode encode) {
  encode(s.writer());
  s.commit();
}

// A query of one value the host answers: its reply is the value.
template <typename T, typename Encode>
T ask(Stream& s, Encode encode) {
  encode(s.writer());
  auto reply = s.roundtrip();
  if (!reply) return T{};
  wire::Reader r(*reply, 0);
  auto value = r.get<T>();
  return value ? *value : T{};
}

// Replies of several outputs, each a Data copied into at most its bytes.
void copy_outputs(wire::Reader& r, std::initializer_list<std::pair<void*, size_t>> outputs) {
  for (auto [dst, bytes] : outputs) copy_reply(r, dst, bytes);
}

template <typename Encode>
void ask_outputs(Stream& s, Encode encode, std::initializer_list<std::pair<void*, size_t>> outputs) {
  encode(s.writer());
  auto reply = s.roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  copy_outputs(r, outputs);
}

// glGetActiveAttrib and glGetActiveUniform from the host's list, when it
// holds the index and GL would write a name (true: answered).
bool active_from(const wire::ProgramReflection* r, bool uniforms, GLuint index, GLsizei buf_size, GLsizei* length,
                 GLint* size, GLenum* type, GLchar* name) {
  if (!r || !r->interface_known || buf_size <= 0) return false;
  const auto& list = uniforms ? r->uniforms : r->attributes;
  if (index >= list.size()) return false;  // GL_INVALID_VALUE: the host raises it
  const wire::ReflectedVariable& v = list[index];
  write_string(v.name, buf_size, length, name);
  if (size) *size = v.size;
  if (type) *type = v.type;
  return true;
}

}  // namespace

void GLAPIENTRY handle_glLinkProgram(GLuint program) {
  Stream* s = current_stream();
  if (!s) return;
  if (reflecting(*s)) s->gl_state().programs().linking(program);
  send_after(*s, [&](wire::Writer& w) { wire::encode_glLinkProgram(w, program); });
}

void GLAPIENTRY handle_glProgramBinary(GLuint program, GLenum format, const void* binary, GLsizei length) {
  Stream* s = current_stream();
  if (!s) return;
  if (reflecting(*s)) s->gl_state().programs().linking(program);
  const size_t bytes = wire::size::nonnegative(static_cast<int64_t>(length));
  send_after(*s, [&](wire::Writer& w) { wire::encode_glProgramBinary(w, program, format, binary, length, bytes); });
}

void GLAPIENTRY handle_glDeleteProgram(GLuint program) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().programs().deleted(program);
  send_after(*s, [&](wire::Writer& w) { wire::encode_glDeleteProgram(w, program); });
}

void GLAPIENTRY handle_glValidateProgram(GLuint program) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().programs().validated(program);
  send_after(*s, [&](wire::Writer& w) { wire::encode_glValidateProgram(w, program); });
}

void GLAPIENTRY handle_glGetProgramiv(GLuint program, GLenum pname, GLint* params) {
  Stream* s = current_stream();
  if (!s) return;
  if (auto r = told(*s, program)) {
    if (auto value = program_value(*r, pname)) {
      if (params) *params = *value;
      return;
    }
  }
  const size_t bytes = wire::size::pname_values(pname) * 4;
  ask_outputs(*s, [&](wire::Writer& w) { wire::encode_glGetProgramiv(w, program, pname); }, {{params, bytes}});
}

void GLAPIENTRY handle_glGetProgramInfoLog(GLuint program, GLsizei buf_size, GLsizei* length, GLchar* log) {
  Stream* s = current_stream();
  if (!s) return;
  if (auto r = told(*s, program); r && r->info_log && buf_size > 0) {
    write_string(*r->info_log, buf_size, length, log);
    return;
  }
  const size_t bytes = wire::size::nonnegative(static_cast<int64_t>(buf_size));
  ask_outputs(*s, [&](wire::Writer& w) { wire::encode_glGetProgramInfoLog(w, program, buf_size); },
              {{length, 4}, {log, bytes}});
}

// A name's location or index from what the host told of `program`; the
// host's answer where that does not settle it.
template <typename T, typename Lookup, typename Encode>
T by_name(GLuint program, const GLchar* name, Lookup lookup, Encode encode) {
  Stream* s = current_stream();
  if (!s) return 0;
  if (auto r = told(*s, program); r && name) {
    if (auto found = lookup(*r, name)) return *found;
  }
  return ask<T>(*s, [&](wire::Writer& w) { encode(w, program, name); });
}

GLint GLAPIENTRY handle_glGetUniformLocation(GLuint program, const GLchar* name) {
  return by_name<GLint>(program, name, uniform_location, wire::encode_glGetUniformLocation);
}

GLint GLAPIENTRY handle_glGetAttribLocation(GLuint program, const GLchar* name) {
  return by_name<GLint>(program, name, attrib_location, wire::encode_glGetAttribLocation);
}

GLuint GLAPIENTRY handle_glGetUniformBlockIndex(GLuint program, const GLchar* name) {
  return by_name<GLuint>(program, name, uniform_block_index, wire::encode_glGetUniformBlockIndex);
}

void GLAPIENTRY handle_glGetActiveUniform(GLuint program, GLuint index, GLsizei buf_size, GLsizei* length,
                                          GLint* size, GLenum* type, GLchar* name) {
  Stream* s = current_stream();
  if (!s) return;
  if (active_from(told(*s, program).get(), true, index, buf_size, length, size, type, name)) return;
  const size_t bytes = wire::size::nonnegative(static_cast<int64_t>(buf_size));
  ask_outputs(*s, [&](wire::Writer& w) { wire::encode_glGetActiveUniform(w, program, index, buf_size); },
              {{length, 4}, {size, 4}, {type, 4}, {name, bytes}});
}

void GLAPIENTRY handle_glGetActiveAttrib(GLuint program, GLuint index, GLsizei buf_size, GLsizei* length,
                                         GLint* size, GLenum* type, GLchar* name) {
  Stream* s = current_stream();
  if (!s) return;
  if (active_from(told(*s, program).get(), false, index, buf_size, length, size, type, name)) return;
  const size_t bytes = wire::size::nonnegative(static_cast<int64_t>(buf_size));
  ask_outputs(*s, [&](wire::Writer& w) { wire::encode_glGetActiveAttrib(w, program, index, buf_size); },
              {{length, 4}, {size, 4}, {type, 4}, {name, bytes}});
}

}  // namespace icd
