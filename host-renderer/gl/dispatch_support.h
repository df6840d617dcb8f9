// Validation helpers the generated dispatch calls before every GL call:
// each turns guest bytes into a pointer GL may safely read or write.
#pragma once

#include <epoxy/gl.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "gl/context_impl.h"
#include "host/gl_dispatch.h"
#include "wire/reader.h"
#include "wire/result.h"

namespace host {

using DispatchFn = wire::Status (*)(DispatchEnv&, wire::Reader&);

// The generated table: the dispatch function of a GL opcode, or null.
DispatchFn gl_dispatch_fn(uint32_t opcode);

// Largest array a single command may hand back to the guest.
constexpr size_t kMaxReplyArrayBytes = 256u << 20;

struct OutBuffer {
  void* data;
  size_t bytes;  // what the guest gets back (without padding)
  // Over the guest's memory limit (GlContextState::Impl::charge_reply):
  // nothing allocated, GL not to be called, the reply carries no bytes.
  bool refused = false;
};

// The reply of a command whose reply room was refused: `outputs` empty
// Data, one for each output the command has, so the guest reads nothing.
wire::Status refused_reply(DispatchEnv& env, size_t outputs);

// Scratch memory valid until the next command (zero-filled).
void* scratch(size_t bytes);
void reset_scratch();

// Zeros GL reads where a program passed NULL for data GL reads (pixels,
// image data) and no unpack buffer is bound: a bug GL need not catch
// before it reads, so GL reads zeros and still raises its own errors for
// the call. They are charged to the guest while the command runs, as a
// reply's room is: null when its memory is full, an error past the reply
// limit.
wire::Result<void*> null_data_zeros(GlContextState::Impl& st, size_t bytes);

// An input array of `count` elements of `elem` bytes. With `pad`, GL may
// read up to `pad` elements whatever the guest said, so shorter data is
// copied into zero-filled scratch. `from_unpack`: the data may be an offset
// into the bound pixel unpack buffer.
wire::Result<const void*> input_array(DispatchEnv& env, const wire::Data& data, size_t count,
                                      size_t elem, size_t pad, bool nullable,
                                      bool from_unpack = false);
// A NUL-terminated string.
wire::Result<const GLchar*> input_string(const wire::Data& data);
// A string with an explicit length, or NUL-terminated when length < 0.
wire::Result<const GLchar*> input_counted_string(DispatchEnv& env, const wire::Data& data,
                                                 GLsizei length);
// Zeroed room for GL to write `count` (at least `pad`) elements.
wire::Result<OutBuffer> output_array(DispatchEnv& env, size_t count, size_t elem, size_t pad);

// Guest names -> host names for an array argument.
wire::Result<std::span<GLuint>> translate_array(GlContextState::Impl& st, ObjectType t,
                                                const void* guest, size_t count, NameUse use);
void forget_array(GlContextState::Impl& st, ObjectType t, const void* guest, size_t count);

// Whether a buffer is bound to `binding_query` (e.g. GL_PIXEL_UNPACK_BUFFER_BINDING):
// offsets from the guest are only ever used as offsets into a bound buffer.
bool buffer_bound(GLenum binding_query);
// The same for GL_PIXEL_PACK/UNPACK_BUFFER_BINDING, which OpenGL ES before
// 3.0 has not (asking would raise an error the guest would see).
bool pixel_buffer_bound(GlContextState::Impl& st, GLenum binding_query);

// Records `error` for the guest's next glGetError (unless an earlier one
// waits) instead of making a call the host will not make: the error GL gives
// a program that makes it natively.
void refuse_call(GlContextState::Impl& st, GLenum error);

// Runs a query `ask` and tells whether GL answered it. GL writes nothing
// for a query it refuses, so the guest must not copy an answer into the
// program's memory then; GL's error waits for the guest's glGetError (an
// error GL held before the query keeps its place ahead of it).
template <typename Ask>
bool answered_by_gl(GlContextState::Impl& st, Ask ask) {
  if (const GLenum held = glGetError(); held != GL_NO_ERROR) refuse_call(st, held);
  ask();
  const GLenum error = glGetError();
  if (error == GL_NO_ERROR) return true;
  refuse_call(st, error);
  return false;
}

// The host's own queries between a guest's commands: an error GL holds for
// the program keeps its place for the program's glGetError, and what the
// queries raise is dropped (a bounded number of times: a lost context may
// answer GL_CONTEXT_LOST again).
template <typename Queries>
auto own_queries(GlContextState::Impl& st, Queries queries) {
  if (const GLenum held = glGetError(); held != GL_NO_ERROR) refuse_call(st, held);
  auto result = queries();
  for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; ++i) {
  }
  return result;
}

// The bytes GL wrote of a string answer in `bytes` of zeroed room: the
// string and its NUL.
inline size_t written_string_bytes(const void* data, size_t bytes) {
  return bytes == 0 ? 0 : std::min(bytes, ::strnlen(static_cast<const char*>(data), bytes) + 1);
}

// Whether GL has texture unit `unit` (GL_TEXTUREi): glActiveTexture takes
// it without an error. Compatibility contexts.
bool texture_unit_exists(GLenum unit);

// The target a texture was created with (GL 4.5 named commands have none);
// 0 when GL does not say. Mesa answers GL_TEXTURE_TARGET in core profiles
// only: the error it raises elsewhere is the host's and is dropped, while an
// error GL already held stays the guest's.
GLenum texture_target(GlContextState::Impl& st, GLuint texture);

}  // namespace host
