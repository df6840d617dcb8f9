// Buffer mapping: the guest maps a shadow copy; the host maps its buffer
// only to fill the shadow (read maps) or to take the guest's writes.
//
// Wire layout (guest-icd/gl/buffer_entry.cpp writes it):
//   glMapBufferRange  u32 phase (0 read, 1 write), u32 target, i64 offset, i64 length,
//                     u32 access; write: Data bytes; read replies Data bytes
//   glMapNamedBufferRange  the same with u32 buffer (a guest name) for target
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

namespace host {

namespace {

// One phase of a guest mapping (docs/host.md): 0 reads the range back, 1
// writes the guest's bytes into it. `map(offset, length, access)` and
// `unmap()` reach the buffer at a binding or by name.
template <typename Map, typename Unmap>
wire::Status map_phase(DispatchEnv& env, wire::Reader& r, uint32_t phase, int64_t offset,
                       int64_t length, GLbitfield access, Map map, Unmap unmap) {
  if (offset < 0 || length <= 0 || static_cast<uint64_t>(length) > kMaxReplyArrayBytes) {
    return wire::make_error(wire::Errc::kBadValue, "map range " + std::to_string(length));
  }
  const auto bytes = static_cast<size_t>(length);
  if (phase == 0) {
    if (!env.state.impl().charge_reply(bytes)) return refused_reply(env, 1);
    void* mapped = map(offset, length, GL_MAP_READ_BIT);
    void* out = scratch(bytes);
    if (mapped) std::memcpy(out, mapped, bytes);
    if (mapped) unmap();
    env.reply.put_data(out, mapped ? bytes : 0);
    return {};
  }
  wire::Data data;
  WIRE_TRY(read_data(r, data));
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

}  // namespace

wire::Status handle_glMapBufferRange(DispatchEnv& env, wire::Reader& r) {
  uint32_t phase = 0;
  GLenum target = 0;
  int64_t offset = 0, length = 0;
  GLbitfield access = 0;
  WIRE_TRY(read_args(r, phase, target, offset, length, access));
  return map_phase(env, r, phase, offset, length, access,
                   [&](int64_t o, int64_t l, GLbitfield a) { return glMapBufferRange(target, o, l, a); },
                   [&] { glUnmapBuffer(target); });
}

wire::Status handle_glMapNamedBufferRange(DispatchEnv& env, wire::Reader& r) {
  uint32_t phase = 0;
  GLuint guest = 0;
  int64_t offset = 0, length = 0;
  GLbitfield access = 0;
  WIRE_TRY(read_args(r, phase, guest, offset, length, access));
  GLuint buffer = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kBuffer, guest, NameUse::kExisting, &buffer));
  return map_phase(env, r, phase, offset, length, access,
                   [&](int64_t o, int64_t l, GLbitfield a) { return glMapNamedBufferRange(buffer, o, l, a); },
                   [&] { glUnmapNamedBuffer(buffer); });
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
