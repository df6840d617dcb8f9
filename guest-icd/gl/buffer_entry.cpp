// Buffers: bindings and sizes tracked in the guest; mapped ranges are guest
// shadows, filled from the host only for read maps and sent back on unmap
// or explicit flush (the host side is host-renderer/gl/buffer_handlers.cpp).
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

constexpr GLbitfield kMapRead = 0x0001, kMapWrite = 0x0002;
constexpr GLbitfield kFlushExplicit = 0x0010;
constexpr GLbitfield kInvalidateBuffer = 0x0008;
constexpr GLenum kReadOnly = 0x88B8, kWriteOnly = 0x88B9;

// Sends [offset, offset + length) of the mapping's shadow to the host buffer.
void send_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, GLbitfield access) {
  if (length <= 0) return;
  size_t start = begin(s, wire::GlOp::glMapBufferRange);
  auto& w = s.writer();
  w.put(uint32_t{1});
  w.put(static_cast<uint32_t>(m.target));
  w.put(m.offset + offset);
  w.put(length);
  w.put(static_cast<uint32_t>(access));
  w.put_data(m.shadow.data() + offset, static_cast<size_t>(length));
  finish(s, start);
}

}  // namespace

void GLAPIENTRY handle_glBindBuffer(GLenum target, GLuint buffer) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().bind_buffer(target, buffer);
  wire::encode_glBindBuffer(s->writer(), target, buffer);
  s->commit();
}

void GLAPIENTRY handle_glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  Stream* s = current_stream();
  if (!s || n < 0 || !buffers) return;
  for (GLsizei i = 0; i < n; ++i) s->gl_state().forget_buffer(buffers[i]);
  wire::encode_glDeleteBuffers(s->writer(), n, buffers, static_cast<size_t>(n) * 4);
  s->commit();
}

void GLAPIENTRY handle_glBufferData(GLenum target, GLsizeiptr size, const void* data,
                                    GLenum usage) {
  Stream* s = current_stream();
  if (!s) return;
  GlState& st = s->gl_state();
  st.set_buffer_size(st.bound_buffer(target), size);
  wire::encode_glBufferData(s->writer(), target, size, data, usage,
                            size > 0 ? static_cast<size_t>(size) : 0);
  s->commit();
}

void* GLAPIENTRY handle_glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length,
                                         GLbitfield access) {
  Stream* s = current_stream();
  if (!s || length <= 0 || offset < 0) return nullptr;
  Mapping& m = s->gl_state().mappings()[target];
  m = Mapping{target, offset, length, access, std::vector<std::byte>(static_cast<size_t>(length))};
  if (access & kMapRead) {
    size_t start = begin(*s, wire::GlOp::glMapBufferRange);
    auto& w = s->writer();
    w.put(uint32_t{0});
    w.put(static_cast<uint32_t>(target));
    w.put(static_cast<int64_t>(offset));
    w.put(static_cast<int64_t>(length));
    w.put(static_cast<uint32_t>(access));
    auto reply = finish_and_wait(*s, start);
    if (!reply) return nullptr;
    wire::Reader r(*reply, 0);
    copy_reply(r, m.shadow.data(), m.shadow.size());
  }
  return m.shadow.data();
}

void* GLAPIENTRY handle_glMapBuffer(GLenum target, GLenum access) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  const int64_t size = s->gl_state().buffer_size(s->gl_state().bound_buffer(target));
  GLbitfield bits = access == kReadOnly ? kMapRead
                    : access == kWriteOnly ? kMapWrite : (kMapRead | kMapWrite);
  return handle_glMapBufferRange(target, 0, size, bits);
}

GLboolean GLAPIENTRY handle_glUnmapBuffer(GLenum target) {
  Stream* s = current_stream();
  if (!s) return 0;
  auto& maps = s->gl_state().mappings();
  auto it = maps.find(target);
  if (it == maps.end()) return 0;
  const Mapping& m = it->second;
  if ((m.access & kMapWrite) && !(m.access & kFlushExplicit)) {
    send_range(*s, m, 0, m.length, m.access);
  }
  maps.erase(it);
  return 1;
}

void GLAPIENTRY handle_glFlushMappedBufferRange(GLenum target, GLintptr offset,
                                                GLsizeiptr length) {
  Stream* s = current_stream();
  if (!s) return;
  auto& maps = s->gl_state().mappings();
  auto it = maps.find(target);
  if (it == maps.end() || offset < 0 || length < 0 || offset + length > it->second.length) return;
  // Invalidating the whole buffer again would drop ranges flushed before.
  send_range(*s, it->second, offset, length, it->second.access & ~kInvalidateBuffer);
}

void GLAPIENTRY handle_glGetBufferPointerv(GLenum target, GLenum pname, void** params) {
  Stream* s = current_stream();
  if (!s || !params) return;
  auto& maps = s->gl_state().mappings();
  auto it = maps.find(target);
  (void)pname;  // GL_BUFFER_MAP_POINTER is the only pname
  *params = it == maps.end() ? nullptr : it->second.shadow.data();
}

}  // namespace icd
