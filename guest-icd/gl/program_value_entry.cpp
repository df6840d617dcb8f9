// Values of a program the host is asked for: uniforms, the program
// string, and the parameters of uniform blocks and atomic counter buffers.
// Wire layouts and replies: wire-protocol/annotations.toml [layouts] and
// [replies].
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "gl/entry_support.h"
#include "gl/debug_output.h"
#include "gl/gl_handlers.h"
#include "gl/legacy_arrays.h"
#include "gl/persistent_mappings.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {

namespace {

using UniformEncoder = void (*)(wire::Writer&, GLuint, GLint);

template <typename T>
void get_uniform(UniformEncoder encode, GLuint program, GLint location, T* params) {
  Stream* s = current_stream();
  if (!s) return;
  encode(s->writer(), program, location);
  wire::Reply_glGetUniformfv out;  // the reply of every glGetUniform*
  if (await_reply(*s, out, wire::decode_reply_glGetUniformfv)) copy_data(out.values, params, 16 * sizeof(T));
}

}  // namespace

void GLAPIENTRY handle_glGetUniformfv(GLuint program, GLint location, GLfloat* params) {
  get_uniform(wire::encode_glGetUniformfv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformiv(GLuint program, GLint location, GLint* params) {
  get_uniform(wire::encode_glGetUniformiv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformuiv(GLuint program, GLint location, GLuint* params) {
  get_uniform(wire::encode_glGetUniformuiv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformdv(GLuint program, GLint location, GLdouble* params) {
  get_uniform(wire::encode_glGetUniformdv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformi64vARB(GLuint program, GLint location, GLint64* params) {
  get_uniform(wire::encode_glGetUniformi64vARB, program, location, params);
}

void GLAPIENTRY handle_glGetUniformui64vARB(GLuint program, GLint location, GLuint64* params) {
  get_uniform(wire::encode_glGetUniformui64vARB, program, location, params);
}

void GLAPIENTRY handle_glGetUniformi64vNV(GLuint program, GLint location, GLint64EXT* params) {
  get_uniform(wire::encode_glGetUniformi64vNV, program, location, params);
}

void GLAPIENTRY handle_glGetUniformui64vNV(GLuint program, GLint location, GLuint64EXT* params) {
  get_uniform(wire::encode_glGetUniformui64vNV, program, location, params);
}

namespace {

// The host knows the program string's length; the program's buffer holds it.
template <typename Encode>
void get_program_string(void* string, Encode encode) {
  Stream* s = current_stream();
  if (!s) return;
  encode(s->writer());
  wire::Reply_glGetProgramStringARB out;  // also glGetNamedProgramStringEXT's
  if (await_reply(*s, out, wire::decode_reply_glGetProgramStringARB)) copy_data(out.string, string, SIZE_MAX);
}

}  // namespace

void GLAPIENTRY handle_glGetProgramStringARB(GLenum target, GLenum pname, void* string) {
  get_program_string(string, [&](wire::Writer& w) { wire::encode_glGetProgramStringARB(w, target, pname); });
}

// The same for a named program (GL_EXT_direct_state_access).
void GLAPIENTRY handle_glGetNamedProgramStringEXT(GLuint program, GLenum target, GLenum pname, void* string) {
  get_program_string(string, [&](wire::Writer& w) {
    wire::encode_glGetNamedProgramStringEXT(w, program, target, pname);
  });
}

namespace {

using BlockQueryEncoder = void (*)(wire::Writer&, GLuint, GLuint, GLenum);

// A block's or buffer's values: as many as the host found.
void get_block_values(BlockQueryEncoder encode, GLuint program, GLuint index, GLenum pname, GLint* params) {
  Stream* s = current_stream();
  if (!s || !params) return;
  encode(s->writer(), program, index, pname);
  wire::Reply_glGetActiveUniformBlockiv out;  // also glGetActiveAtomicCounterBufferiv's
  if (!await_reply(*s, out, wire::decode_reply_glGetActiveUniformBlockiv)) return;
  std::memcpy(params, out.values.bytes.data(), out.values.bytes.size());
}

}  // namespace

void GLAPIENTRY handle_glGetActiveUniformBlockiv(GLuint program, GLuint block, GLenum pname,
                                                 GLint* params) {
  get_block_values(wire::encode_glGetActiveUniformBlockiv, program, block, pname, params);
}

void GLAPIENTRY handle_glGetActiveAtomicCounterBufferiv(GLuint program, GLuint buffer, GLenum pname,
                                                        GLint* params) {
  get_block_values(wire::encode_glGetActiveAtomicCounterBufferiv, program, buffer, pname, params);
}

}  // namespace icd
