// Clears, copies and invalidations of buffers. GL refuses them on any part
// of a buffer mapped without GL_MAP_PERSISTENT_BIT (OpenGL 4.6, 6.2, 6.3.2,
// 6.5 and 6.6);
// while the program holds such a map the host's buffer is not mapped (the
// map is a guest shadow), so the guest raises the error itself. Persistent
// mappings are kept apart (gl/persistent_mappings.h) and never refuse.
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"
#include "wire/sizes.h"

namespace icd {
namespace {

constexpr GLenum kInvalidOperation = 0x0502;

// The whole buffer, for a clear of all of it.
constexpr int64_t kWhole = -1;

bool overlaps(const Mapping& m, int64_t offset, int64_t size) {
  return size == kWhole || (offset < m.offset + m.length && m.offset < offset + size);
}

// Whether the range of `buffer` is mapped without persistence, by a
// binding or by name; GL's error is then raised.
bool refused_while_mapped(Stream& s, GLuint buffer, int64_t offset, int64_t size) {
  GlState& st = s.gl_state();
  bool mapped = false;
  if (auto named = st.named_mappings().find(buffer); buffer && named != st.named_mappings().end()) {
    mapped = overlaps(named->second, offset, size);
  }
  for (const auto& [binding, m] : st.mappings()) {
    mapped |= buffer && m.bound == buffer && overlaps(m, offset, size);
  }
  if (mapped) st.raise_error(kInvalidOperation);
  return mapped;
}

// The same for the buffer bound at `target`: mapped through that binding,
// or (where the guest follows the binding) otherwise.
bool refused_while_mapped_at(Stream& s, GLenum target, int64_t offset, int64_t size) {
  GlState& st = s.gl_state();
  if (auto m = st.mappings().find(st.binding_key(target)); m != st.mappings().end() && overlaps(m->second, offset, size)) {
    st.raise_error(kInvalidOperation);
    return true;
  }
  return refused_while_mapped(s, st.bound_buffer(target), offset, size);
}

}  // namespace

using wire::size::texel_bytes;  // the one texel GL reads from `data`

void GLAPIENTRY handle_glClearBufferData(GLenum target, GLenum internalformat, GLenum format,
                                         GLenum type, const void* data) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped_at(*s, target, 0, kWhole)) return;
  wire::encode_glClearBufferData(s->writer(), target, internalformat, format, type, data,
                                 texel_bytes(format, type));
  s->commit();
}

void GLAPIENTRY handle_glClearBufferSubData(GLenum target, GLenum internalformat, GLintptr offset,
                                            GLsizeiptr size, GLenum format, GLenum type,
                                            const void* data) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped_at(*s, target, offset, size)) return;
  wire::encode_glClearBufferSubData(s->writer(), target, internalformat, offset, size, format, type,
                                    data, texel_bytes(format, type));
  s->commit();
}

void GLAPIENTRY handle_glClearNamedBufferData(GLuint buffer, GLenum internalformat, GLenum format,
                                              GLenum type, const void* data) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped(*s, buffer, 0, kWhole)) return;
  wire::encode_glClearNamedBufferData(s->writer(), buffer, internalformat, format, type, data,
                                      texel_bytes(format, type));
  s->commit();
}

void GLAPIENTRY handle_glClearNamedBufferSubData(GLuint buffer, GLenum internalformat,
                                                 GLintptr offset, GLsizeiptr size, GLenum format,
                                                 GLenum type, const void* data) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped(*s, buffer, offset, size)) return;
  wire::encode_glClearNamedBufferSubData(s->writer(), buffer, internalformat, offset, size, format,
                                         type, data, texel_bytes(format, type));
  s->commit();
}

void GLAPIENTRY handle_glCopyBufferSubData(GLenum read_target, GLenum write_target, GLintptr read_offset,
                                           GLintptr write_offset, GLsizeiptr size) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped_at(*s, read_target, 0, kWhole) || refused_while_mapped_at(*s, write_target, 0, kWhole))
    return;
  wire::encode_glCopyBufferSubData(s->writer(), read_target, write_target, read_offset, write_offset, size);
  s->commit();
}

void GLAPIENTRY handle_glCopyNamedBufferSubData(GLuint read_buffer, GLuint write_buffer, GLintptr read_offset,
                                                GLintptr write_offset, GLsizeiptr size) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped(*s, read_buffer, 0, kWhole) || refused_while_mapped(*s, write_buffer, 0, kWhole))
    return;
  wire::encode_glCopyNamedBufferSubData(s->writer(), read_buffer, write_buffer, read_offset, write_offset, size);
  s->commit();
}

void GLAPIENTRY handle_glInvalidateBufferData(GLuint buffer) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped(*s, buffer, 0, kWhole)) return;
  wire::encode_glInvalidateBufferData(s->writer(), buffer);
  s->commit();
}

void GLAPIENTRY handle_glInvalidateBufferSubData(GLuint buffer, GLintptr offset, GLsizeiptr length) {
  Stream* s = current_stream();
  if (!s || refused_while_mapped(*s, buffer, offset, length)) return;
  wire::encode_glInvalidateBufferSubData(s->writer(), buffer, offset, length);
  s->commit();
}

}  // namespace icd
