// Buffers: bindings and sizes tracked in the guest; mapped ranges are guest
// shadows, filled from the host only for read maps and sent back on unmap
// or explicit flush (the host side is host-renderer/gl/buffer_handlers.cpp).
// A mapping made through a binding and one made by name (OpenGL 4.5) are
// kept apart: each is flushed and unmapped the way it was made.
#include <map>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

constexpr GLbitfield kMapRead = 0x0001, kMapWrite = 0x0002;
constexpr GLbitfield kFlushExplicit = 0x0010;
constexpr GLbitfield kInvalidateBuffer = 0x0008;
constexpr GLenum kReadOnly = 0x88B8, kWriteOnly = 0x88B9;

// Starts a map command of `phase` (0: read the range, 1: write it) for the
// buffer at m's binding or of m's name.
size_t begin_map(Stream& s, const Mapping& m, uint32_t phase, int64_t offset, int64_t length,
                 GLbitfield access) {
  size_t start = begin(s, m.buffer ? wire::GlOp::glMapNamedBufferRange : wire::GlOp::glMapBufferRange);
  auto& w = s.writer();
  w.put(phase);
  w.put(m.buffer ? m.buffer : static_cast<uint32_t>(m.target));
  w.put(offset);
  w.put(length);
  w.put(static_cast<uint32_t>(access));
  return start;
}

// Sends [offset, offset + length) of the mapping's shadow to the host buffer.
void send_range(Stream& s, const Mapping& m, int64_t offset, int64_t length, GLbitfield access) {
  if (length <= 0) return;
  size_t start = begin_map(s, m, 1, m.offset + offset, length, access);
  s.writer().put_data(m.shadow.data() + offset, static_cast<size_t>(length));
  finish(s, start);
}

// Makes m's shadow, filled from the host for a read map; the program's pointer.
void* map_shadow(Stream& s, Mapping& m) {
  m.shadow.assign(static_cast<size_t>(m.length), std::byte{0});
  if (m.access & kMapRead) {
    auto reply = finish_and_wait(s, begin_map(s, m, 0, m.offset, m.length, m.access));
    if (!reply) return nullptr;
    wire::Reader r(*reply, 0);
    copy_reply(r, m.shadow.data(), m.shadow.size());
  }
  return m.shadow.data();
}

// Sends a mapping written without explicit flushes back as it ends.
void unmap(Stream& s, const Mapping& m) {
  if ((m.access & kMapWrite) && !(m.access & kFlushExplicit)) send_range(s, m, 0, m.length, m.access);
}

// The part of a mapping the program flushes explicitly.
void flush_range(Stream& s, const Mapping& m, GLintptr offset, GLsizeiptr length) {
  if (offset < 0 || length < 0 || offset + length > m.length) return;
  // Invalidating the whole buffer again would drop ranges flushed before.
  send_range(s, m, offset, length, m.access & ~kInvalidateBuffer);
}

// Ends the mapping kept under `key` (a binding or a name); false if none.
template <typename Key>
GLboolean end_mapping(Stream& s, std::map<Key, Mapping>& maps, Key key) {
  auto it = maps.find(key);
  if (it == maps.end()) return 0;
  unmap(s, it->second);
  maps.erase(it);
  return 1;
}

template <typename Key>
void flush_mapping(Stream& s, std::map<Key, Mapping>& maps, Key key, GLintptr offset,
                   GLsizeiptr length) {
  auto it = maps.find(key);
  if (it != maps.end()) flush_range(s, it->second, offset, length);
}

// The program's pointer to the mapping under `key`, null when none.
template <typename Key>
void* mapping_pointer(std::map<Key, Mapping>& maps, Key key) {
  auto it = maps.find(key);
  return it == maps.end() ? nullptr : it->second.shadow.data();
}

GLbitfield access_bits(GLenum access) {
  return access == kReadOnly ? kMapRead : access == kWriteOnly ? kMapWrite : (kMapRead | kMapWrite);
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
  for (GLsizei i = 0; i < n; ++i) {
    s->gl_state().forget_buffer(buffers[i]);
    s->gl_state().named_mappings().erase(buffers[i]);  // deleting unmaps
  }
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
  m = Mapping{target, 0, offset, length, access, {}};
  return map_shadow(*s, m);
}

void* GLAPIENTRY handle_glMapBuffer(GLenum target, GLenum access) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  const int64_t size = s->gl_state().buffer_size(s->gl_state().bound_buffer(target));
  return handle_glMapBufferRange(target, 0, size, access_bits(access));
}

GLboolean GLAPIENTRY handle_glUnmapBuffer(GLenum target) {
  Stream* s = current_stream();
  return s ? end_mapping(*s, s->gl_state().mappings(), target) : 0;
}

void GLAPIENTRY handle_glFlushMappedBufferRange(GLenum target, GLintptr offset,
                                                GLsizeiptr length) {
  Stream* s = current_stream();
  if (s) flush_mapping(*s, s->gl_state().mappings(), target, offset, length);
}

void* GLAPIENTRY handle_glMapNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length,
                                              GLbitfield access) {
  Stream* s = current_stream();
  if (!s || buffer == 0 || length <= 0 || offset < 0) return nullptr;
  Mapping& m = s->gl_state().named_mappings()[buffer];
  m = Mapping{0, buffer, offset, length, access, {}};
  return map_shadow(*s, m);
}

// The buffer's size comes from the host: named storage may have been made
// by any command, in any context of the share group.
void* GLAPIENTRY handle_glMapNamedBuffer(GLuint buffer, GLenum access) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  constexpr GLenum kBufferSize = 0x8764;
  wire::encode_glGetNamedBufferParameteri64v(s->writer(), buffer, kBufferSize);
  auto reply = s->roundtrip();
  if (!reply) return nullptr;
  wire::Reader r(*reply, 0);
  int64_t size = 0;
  copy_reply(r, &size, sizeof size);
  return handle_glMapNamedBufferRange(buffer, 0, size, access_bits(access));
}

GLboolean GLAPIENTRY handle_glUnmapNamedBuffer(GLuint buffer) {
  Stream* s = current_stream();
  return s ? end_mapping(*s, s->gl_state().named_mappings(), buffer) : 0;
}

void GLAPIENTRY handle_glFlushMappedNamedBufferRange(GLuint buffer, GLintptr offset,
                                                     GLsizeiptr length) {
  Stream* s = current_stream();
  if (s) flush_mapping(*s, s->gl_state().named_mappings(), buffer, offset, length);
}

void GLAPIENTRY handle_glGetNamedBufferPointerv(GLuint buffer, GLenum, void** params) {
  Stream* s = current_stream();  // GL_BUFFER_MAP_POINTER is the only pname
  if (s && params) *params = mapping_pointer(s->gl_state().named_mappings(), buffer);
}

void GLAPIENTRY handle_glGetBufferPointerv(GLenum target, GLenum, void** params) {
  Stream* s = current_stream();  // GL_BUFFER_MAP_POINTER is the only pname
  if (s && params) *params = mapping_pointer(s->gl_state().mappings(), target);
}

}  // namespace icd
