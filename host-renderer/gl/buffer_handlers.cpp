// Buffer mapping: the guest maps a shadow copy; the host maps its buffer
// only to fill the shadow (read maps) or to take the guest's writes.
//
// Wire layouts and replies: annotations.toml [layouts] and [replies].
// Phases: 0 reads the range (a write-only map reads it too, through a copy,
// to keep what the program does not overwrite), 1 writes the command's
// bytes into it; a persistent mapping's are 2 (read through a copy) and 3
// (write), with a guest buffer name in place of the target.
#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "gl/client_arrays.h"
#include "gl/dispatch_support.h"
#include "gl/legacy_arrays.h"
#include "gl/read_args.h"
#include "gl/gl_host_handlers.h"
#include "wire/gl_replies.h"

namespace host {

namespace {

wire::Status check_range(int64_t offset, int64_t length) {
  if (offset >= 0 && length > 0 && static_cast<uint64_t>(length) <= kMaxReplyArrayBytes) return {};
  return wire::make_error(wire::Errc::kBadValue, "map range " + std::to_string(length));
}

GLenum copy_binding(GLenum target) {
  return target == GL_COPY_READ_BUFFER ? GL_COPY_READ_BUFFER_BINDING : GL_COPY_WRITE_BUFFER_BINDING;
}

// Reads `length` bytes of a buffer into the reply without mapping it, so
// storage that may not be mapped for reading reads too (programs read
// their write-only persistent mappings, and a write-only map keeps what it
// does not overwrite): copy() copies the range into the staging buffer,
// bound at `staging_target` meanwhile.
template <typename Copy>
wire::Status read_through_copy(DispatchEnv& env, int64_t length, GLenum staging_target, Copy copy) {
  const auto bytes = static_cast<size_t>(length);
  if (!env.state.impl().charge_reply(bytes)) return refused_reply(env, 1);
  GLint bound = 0;
  glGetIntegerv(copy_binding(staging_target), &bound);
  GLuint staging = 0;
  glGenBuffers(1, &staging);
  glBindBuffer(staging_target, staging);
  glBufferData(staging_target, length, nullptr, GL_STREAM_READ);
  copy();
  const void* mapped = glMapBufferRange(staging_target, 0, length, GL_MAP_READ_BIT);
  wire::encode_reply_glMapBufferRange(env.reply, mapped, mapped ? bytes : 0);  // both forms' reply
  if (mapped) glUnmapBuffer(staging_target);
  glDeleteBuffers(1, &staging);
  glBindBuffer(staging_target, static_cast<GLuint>(bound));
  return {};
}

// The range of the buffer bound at `target`, through a copy.
wire::Status read_bound_through_copy(DispatchEnv& env, GLenum target, int64_t offset, int64_t length) {
  const GLenum staging_target = target == GL_COPY_WRITE_BUFFER ? GL_COPY_READ_BUFFER : GL_COPY_WRITE_BUFFER;
  return read_through_copy(env, length, staging_target, [&] {
    glCopyBufferSubData(target, staging_target, offset, 0, length);
  });
}

// The range of the buffer with host name `buffer`, through a copy; the
// binding the copy reads from is put back afterwards.
wire::Status read_named_through_copy(DispatchEnv& env, GLuint buffer, int64_t offset, int64_t length) {
  GLint bound = 0;
  glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &bound);
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  wire::Status status = read_bound_through_copy(env, GL_COPY_READ_BUFFER, offset, length);
  glBindBuffer(GL_COPY_READ_BUFFER, static_cast<GLuint>(bound));
  return status;
}

// One phase of a guest mapping (docs/host.md): 0 reads the range back
// (mapped for reading when the program maps it so, through a copy when it
// maps for writing only), 1 writes the guest's bytes into it.
// `map(offset, length, access)` and `unmap()` reach the buffer at a binding
// or by name; `read_copy(offset, length)` reads it through a copy.
template <typename Map, typename Unmap, typename ReadCopy>
wire::Status map_phase(DispatchEnv& env, uint32_t phase, int64_t offset, int64_t length,
                       GLbitfield access, const wire::Data& data, Map map, Unmap unmap,
                       ReadCopy read_copy) {
  WIRE_TRY(check_range(offset, length));
  const auto bytes = static_cast<size_t>(length);
  if (phase == 0 && !(access & GL_MAP_READ_BIT)) return read_copy(offset, length);
  if (phase == 0) {
    if (!env.state.impl().charge_reply(bytes)) return refused_reply(env, 1);
    const void* mapped = map(offset, length, GL_MAP_READ_BIT);
    wire::encode_reply_glMapBufferRange(env.reply, mapped, mapped ? bytes : 0);  // the reply's copy is the only one
    if (mapped) unmap();
    return {};
  }
  if (data.kind == wire::DataKind::kBufferOffset || data.bytes.size() < bytes) {
    return wire::make_error(wire::Errc::kBadLength, "mapped data shorter than the range");
  }
  const GLbitfield keep = GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT |
                          GL_MAP_UNSYNCHRONIZED_BIT;
  void* mapped = map(offset, length, GL_MAP_WRITE_BIT | (access & keep));
  if (mapped) {
    std::memcpy(mapped, data.bytes.data(), bytes);
    unmap();
  }
  return {};
}

// Phases 2 and 3 keep a persistent mapping in step with its buffer, which
// need not be bound anywhere then: reached by name (on every API that has
// persistent mappings, through the copy bindings, put back afterwards).
wire::Status persistent_phase(DispatchEnv& env, const wire::Args_glMapBufferRange& args) {
  GLuint buffer = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kBuffer, args.target, NameUse::kExisting, &buffer));
  if (args.phase == 2) {
    WIRE_TRY(check_range(args.offset, args.length));
    return read_named_through_copy(env, buffer, args.offset, args.length);
  }
  GLint bound = 0;
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &bound);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
  wire::Status status = map_phase(
      env, 1, args.offset, args.length, args.access, args.bytes,
      [&](int64_t o, int64_t l, GLbitfield a) { return glMapBufferRange(GL_COPY_WRITE_BUFFER, o, l, a); },
      [&] { glUnmapBuffer(GL_COPY_WRITE_BUFFER); },
      [&](int64_t o, int64_t l) { return read_bound_through_copy(env, GL_COPY_WRITE_BUFFER, o, l); });
  glBindBuffer(GL_COPY_WRITE_BUFFER, static_cast<GLuint>(bound));
  return status;
}

}  // namespace

wire::Status handle_glMapBufferRange(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glMapBufferRange args;
  WIRE_TRY(wire::decode_glMapBufferRange(r, args));
  if (args.phase >= 2) return persistent_phase(env, args);
  const GLenum target = args.target;
  return map_phase(env, args.phase, args.offset, args.length, args.access, args.bytes,
                   [&](int64_t o, int64_t l, GLbitfield a) { return glMapBufferRange(target, o, l, a); },
                   [&] { glUnmapBuffer(target); },
                   [&](int64_t o, int64_t l) { return read_bound_through_copy(env, target, o, l); });
}

wire::Status handle_glMapNamedBufferRange(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glMapNamedBufferRange args;
  WIRE_TRY(wire::decode_glMapNamedBufferRange(r, args));
  GLuint buffer = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kBuffer, args.buffer, NameUse::kExisting, &buffer));
  return map_phase(env, args.phase, args.offset, args.length, args.access, args.bytes,
                   [&](int64_t o, int64_t l, GLbitfield a) { return glMapNamedBufferRange(buffer, o, l, a); },
                   [&] { glUnmapNamedBuffer(buffer); },
                   [&](int64_t o, int64_t l) { return read_named_through_copy(env, buffer, o, l); });
}

namespace {

// Attributes of the current vertex array that read from one of `buffers`.
std::vector<GLuint> attributes_using(GlContextState::Impl& st, std::span<const GLuint> buffers) {
  const std::vector<GLuint> bound = attribute_buffers(st);
  std::vector<GLuint> out;
  for (GLuint i = 0; i < bound.size(); ++i) {
    if (bound[i] != 0 && std::find(buffers.begin(), buffers.end(), bound[i]) != buffers.end()) {
      out.push_back(i);
    }
  }
  return out;
}

}  // namespace

// Deleting a buffer unbinds it from the current vertex array (OpenGL ES 3.2,
// 5.1.2); an attribute left behind would read its offset as a client pointer
// into host memory, so it is parked on a scratch buffer instead.
wire::Status handle_glDeleteBuffers(DispatchEnv& env, wire::Args_glDeleteBuffers& a) {
  auto& st = env.state.impl();
  const size_t count = wire::size::nonnegative(a.n);
  auto guest = input_array(env, a.buffers, count, sizeof(GLuint), 0, false);
  if (!guest) return guest.error();
  auto hosts = translate_array(st, ObjectType::kBuffer, *guest, count, NameUse::kDelete);
  if (!hosts) return hosts.error();
  const std::vector<GLuint> orphaned = attributes_using(st, *hosts);
  const std::vector<LegacyArray> orphaned_legacy = legacy_arrays_using(st, *hosts);
  glDeleteBuffers(static_cast<GLsizei>(count), hosts->data());
  forget_array(st, ObjectType::kBuffer, *guest, count);
  for (GLuint index : orphaned) park_attribute(st, index);
  for (const LegacyArray& array : orphaned_legacy) park_legacy_array(st, array);
  return {};
}

wire::Status handle_glMapBuffer(DispatchEnv&, wire::Reader&) { return guest_only("glMapBuffer"); }

wire::Status handle_glGetBufferPointerv(DispatchEnv&, wire::Reader&) {
  return guest_only("glGetBufferPointerv");
}

}  // namespace host
