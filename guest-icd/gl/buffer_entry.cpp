// Buffers: bindings and sizes tracked in the guest; mapped ranges are guest
// shadows, filled from the host only for read maps and sent back on unmap
// or explicit flush (the host side is host-renderer/gl/buffer_handlers.cpp).
// A mapping made through a binding and one made by name (OpenGL 4.5) are
// kept apart: each is flushed and unmapped the way it was made. Persistent
// mappings are kept by buffer name and in step with their buffer while they
// last (gl/persistent_mappings.h).
#include <algorithm>
#include <cstring>
#include <map>

#include "conn/changed_ranges.h"
#include "gl/buffer_binding.h"
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "gl/map_errors.h"
#include "gl/mapping_transfer.h"
#include "gl/persistent_mappings.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

constexpr GLbitfield kMapRead = 0x0001, kMapWrite = 0x0002;
constexpr GLbitfield kFlushExplicit = 0x0010;
constexpr GLbitfield kInvalidateRange = 0x0004, kInvalidateBuffer = 0x0008;
constexpr GLbitfield kMapPersistent = 0x0040;
constexpr GLenum kInvalidEnum = 0x0500, kInvalidOperation = 0x0502;
constexpr GLenum kBufferSize = 0x8764;

Mapping new_mapping(GLenum target, GLuint buffer, int64_t offset, int64_t length,
                    GLbitfield access) {
  Mapping m;
  m.target = target;
  m.buffer = buffer;
  m.offset = offset;
  m.length = length;
  m.access = access;
  return m;
}

// The host's size of the buffer a mapping names (by name, or bound to its
// target), -1 when no answer comes.
int64_t host_buffer_size(const Mapping& m) {
  if (m.buffer) {
    GLint64 size = -1;
    handle_glGetNamedBufferParameteri64v(m.buffer, kBufferSize, &size);
    return size;
  }
  GLint size = -1;  // the query every API with mappings has
  handle_glGetBufferParameteriv(m.target, kBufferSize, &size);
  return size;
}

// GL's error for mapping m, 0 when GL maps it. The size this context gave
// the buffer may be stale (another context of the share group can give it
// new storage), so a range past it is checked against the host's.
GLenum map_error(Stream& s, const Mapping& m, bool mapped) {
  const GLenum error = map_range_error(m.offset, m.length, m.access, {mapped, -1});
  const int64_t known = s.gl_state().buffer_size(m.buffer ? m.buffer : m.bound);
  if (error || known < 0 || m.offset <= known - m.length) return error;
  return map_range_error(m.offset, m.length, m.access, {mapped, host_buffer_size(m)});
}

// Whether a map shows the buffer's contents: a read map, and a write map
// that does not invalidate them (what the program leaves alone stays, so
// its shadow starts as the buffer's bytes, not zeros).
bool keeps_contents(GLbitfield access) {
  return (access & kMapRead) || !(access & (kInvalidateRange | kInvalidateBuffer));
}

// A write map flushed explicitly that keeps the buffer's contents: bytes
// written but never flushed are undefined in GL, yet they land natively,
// where such a mapping is the buffer itself (piglit's DSA named-buffers
// test relies on it). Its host_copy follows what the host has, so that
// unmap sends them too. Invalidating maps (a program's streaming ring) are
// left alone: their unflushed bytes are garbage either way.
bool sends_unflushed(GLbitfield access) {
  return (access & kMapWrite) && (access & kFlushExplicit) && !(access & kMapPersistent) &&
         !(access & (kInvalidateRange | kInvalidateBuffer));
}

// Makes m's shadow, filled from the host unless the map invalidates; the
// program's pointer, null (and GL's error raised) when GL refuses the map.
void* map_shadow(Stream& s, Mapping& m, bool mapped) {
  if (const GLenum error = map_error(s, m, mapped)) {
    s.gl_state().raise_error(error);
    return nullptr;
  }
  m.shadow.assign(static_cast<size_t>(m.length), m.offset);
  if (keeps_contents(m.access) && !read_range(s, m, 0, m.length, m.shadow.data())) return nullptr;
  if (sends_unflushed(m.access)) m.host_copy.assign(m.shadow.data(), m.shadow.data() + m.shadow.size());
  return m.shadow.data();
}

// A persistent mapping of m.buffer (0 when no buffer is bound).
void* map_persistent(Stream& s, Mapping m) {
  if (m.buffer == 0) {
    s.gl_state().raise_error(kInvalidOperation);
    return nullptr;
  }
  void* pointer = map_shadow(s, m, s.gl_state().persistent_mappings().count(m.buffer) != 0);
  if (pointer) keep_persistent(s, std::move(m));
  return pointer;
}

// Makes the mapping kept under `key`, unless GL refuses it.
template <typename Key>
void* map_kept(Stream& s, std::map<Key, Mapping>& maps, Key key, Mapping m) {
  const bool mapped = maps.count(key) || s.gl_state().persistent_mappings().count(m.buffer) ||
                      (m.bound && std::any_of(maps.begin(), maps.end(), [&](const auto& kept) {
                         return kept.second.bound == m.bound;  // through another target
                       }));
  void* pointer = map_shadow(s, m, mapped);
  if (pointer) maps[key] = std::move(m);
  return pointer;
}

// Sends a mapping written without explicit flushes back as it ends, and
// what one flushed explicitly changed but did not flush (sends_unflushed).
void unmap(Stream& s, const Mapping& m) {
  if ((m.access & kMapWrite) && !(m.access & kFlushExplicit)) send_range(s, m, 0, m.length, m.access);
  if (m.host_copy.empty()) return;
  for (ByteRange r : changed_ranges(m.shadow.data(), m.host_copy.data(), m.shadow.size()))
    send_range(s, m, static_cast<int64_t>(r.offset), static_cast<int64_t>(r.length), m.access);
}

// The part of a mapping the program flushes explicitly.
void flush_range(Stream& s, Mapping& m, GLintptr offset, GLsizeiptr length) {
  if (offset < 0 || length < 0 || offset + length > m.length) return;
  // Invalidating the whole buffer again would drop ranges flushed before.
  send_range(s, m, offset, length, m.access & ~kInvalidateBuffer);
  if (!m.host_copy.empty()) std::memcpy(m.host_copy.data() + offset, m.shadow.data() + offset, length);
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

}  // namespace

void GLAPIENTRY handle_glBindBuffer(GLenum target, GLuint buffer) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().bind_buffer(target, buffer);
  wire::encode_glBindBuffer(s->writer(), target, buffer);
  s->commit();
}

// Binding to an indexed point binds the target's generic point too.
void GLAPIENTRY handle_glBindBufferBase(GLenum target, GLuint index, GLuint buffer) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().bind_buffer(target, buffer);
  wire::encode_glBindBufferBase(s->writer(), target, index, buffer);
  s->commit();
}

void GLAPIENTRY handle_glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset,
                                         GLsizeiptr size) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().bind_buffer(target, buffer);
  wire::encode_glBindBufferRange(s->writer(), target, index, buffer, offset, size);
  s->commit();
}

void GLAPIENTRY handle_glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  Stream* s = current_stream();
  if (!s || s->gl_state().refused_negative(n) || !buffers) return;
  for (GLsizei i = 0; i < n; ++i) {
    s->gl_state().forget_buffer(buffers[i]);
    s->gl_state().named_mappings().erase(buffers[i]);  // deleting unmaps
    forget_persistent(*s, buffers[i]);
  }
  wire::encode_glDeleteBuffers(s->writer(), n, buffers, static_cast<size_t>(n) * 4);
  s->commit();
}

void GLAPIENTRY handle_glBufferData(GLenum target, GLsizeiptr size, const void* data,
                                    GLenum usage) {
  Stream* s = current_stream();
  if (!s) return;
  GlState& st = s->gl_state();
  if (const GLuint bound = st.bound_buffer(target)) st.set_buffer_size(bound, size);
  wire::encode_glBufferData(s->writer(), target, size, data, usage,
                            size > 0 ? static_cast<size_t>(size) : 0);
  s->commit();
}

void* GLAPIENTRY handle_glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length,
                                         GLbitfield access) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  if (access & kMapPersistent) {
    return map_persistent(*s, new_mapping(target, buffer_at(target), offset, length, access));
  }
  Mapping m = new_mapping(target, 0, offset, length, access);
  m.bound = s->gl_state().bound_buffer(target);
  return map_kept(*s, s->gl_state().mappings(), s->gl_state().binding_key(target), std::move(m));
}

// The whole buffer: its size is the one this context gave it, or the host's.
void* GLAPIENTRY handle_glMapBuffer(GLenum target, GLenum access) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  const GLbitfield bits = map_access_bits(access);
  if (!bits) {
    s->gl_state().raise_error(kInvalidEnum);
    return nullptr;
  }
  int64_t size = s->gl_state().buffer_size(s->gl_state().bound_buffer(target));
  if (size < 0) size = host_buffer_size(new_mapping(target, 0, 0, 0, bits));
  return handle_glMapBufferRange(target, 0, size, bits);
}

// Unmapping a buffer that is not mapped is GL's GL_INVALID_OPERATION.
GLboolean GLAPIENTRY handle_glUnmapBuffer(GLenum target) {
  Stream* s = current_stream();
  if (!s) return 0;
  if (end_mapping(*s, s->gl_state().mappings(), s->gl_state().binding_key(target))) return 1;
  if (!s->gl_state().persistent_mappings().empty() && end_persistent(*s, buffer_at(target))) return 1;
  s->gl_state().raise_error(kInvalidOperation);
  return 0;
}

void GLAPIENTRY handle_glFlushMappedBufferRange(GLenum target, GLintptr offset,
                                                GLsizeiptr length) {
  Stream* s = current_stream();
  // A persistent mapping's writes go with the next batch anyway.
  if (s) flush_mapping(*s, s->gl_state().mappings(), s->gl_state().binding_key(target), offset, length);
}

void* GLAPIENTRY handle_glMapNamedBufferRange(GLuint buffer, GLintptr offset, GLsizeiptr length,
                                              GLbitfield access) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  if (buffer == 0) {  // no buffer has the name 0
    s->gl_state().raise_error(kInvalidOperation);
    return nullptr;
  }
  if (access & kMapPersistent) {
    return map_persistent(*s, new_mapping(0, buffer, offset, length, access));
  }
  return map_kept(*s, s->gl_state().named_mappings(), buffer,
                  new_mapping(0, buffer, offset, length, access));
}

// The buffer's size comes from the host: named storage may have been made
// by any command, in any context of the share group.
void* GLAPIENTRY handle_glMapNamedBuffer(GLuint buffer, GLenum access) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  const GLbitfield bits = map_access_bits(access);
  if (buffer == 0) return handle_glMapNamedBufferRange(0, 0, 0, bits);  // GL_INVALID_OPERATION
  if (buffer == 0) return handle_glMapNamedBufferRange(0, 0, 0, bits);  // GL_INVALID_OPERATION
  if (!bits) {
    s->gl_state().raise_error(kInvalidEnum);
    return nullptr;
  }
  const int64_t size = host_buffer_size(new_mapping(0, buffer, 0, 0, bits));
  return handle_glMapNamedBufferRange(buffer, 0, size, bits);
}

GLboolean GLAPIENTRY handle_glUnmapNamedBuffer(GLuint buffer) {
  Stream* s = current_stream();
  if (!s) return 0;
  if (end_mapping(*s, s->gl_state().named_mappings(), buffer) || end_persistent(*s, buffer)) {
    return 1;
  }
  s->gl_state().raise_error(kInvalidOperation);
  return 0;
}

void GLAPIENTRY handle_glFlushMappedNamedBufferRange(GLuint buffer, GLintptr offset,
                                                     GLsizeiptr length) {
  Stream* s = current_stream();
  if (s) flush_mapping(*s, s->gl_state().named_mappings(), buffer, offset, length);
}

void GLAPIENTRY handle_glGetNamedBufferPointerv(GLuint buffer, GLenum, void** params) {
  Stream* s = current_stream();  // GL_BUFFER_MAP_POINTER is the only pname
  if (!s || !params) return;
  *params = mapping_pointer(s->gl_state().named_mappings(), buffer);
  if (!*params) *params = mapping_pointer(s->gl_state().persistent_mappings(), buffer);
}

void GLAPIENTRY handle_glGetBufferPointerv(GLenum target, GLenum, void** params) {
  Stream* s = current_stream();  // GL_BUFFER_MAP_POINTER is the only pname
  if (!s || !params) return;
  *params = mapping_pointer(s->gl_state().mappings(), s->gl_state().binding_key(target));
  if (!*params && !s->gl_state().persistent_mappings().empty()) {
    *params = mapping_pointer(s->gl_state().persistent_mappings(), buffer_at(target));
  }
}

}  // namespace icd
