// Vertex arrays and draws. Client-side vertex arrays are only recorded when
// set; each draw sends the vertex range it reads (for glDrawElements the
// range of its indices), so the host never needs guest memory.
// Wire layouts: wire-protocol/annotations.toml [layouts].
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <vector>

#include "gl/buffer_binding.h"
#include "gl/direct_state.h"
#include "gl/entry_support.h"
#include "icd/stream.h"
#include "gl/gl_handlers.h"
#include "gl/pointer_errors.h"
#include "wire/gl_encode.h"
#include "wire/sizes.h"

namespace icd {
namespace {

constexpr GLenum kArrayBuffer = 0x8892;
constexpr GLenum kElementArrayBuffer = 0x8893;

void encode_attrib(Stream& s, GLuint index, const ClientArray& a, uint64_t start,
                   const void* data, size_t bytes, bool in_buffer) {
  auto& w = s.writer();
  switch (a.format) {
    case AttribFormat::kInteger:
      wire::encode_glVertexAttribIPointer(w, index, a.size, a.type, a.stride, start, data, bytes, in_buffer);
      break;
    case AttribFormat::kLong:
      wire::encode_glVertexAttribLPointer(w, index, a.size, a.type, a.stride, start, data, bytes, in_buffer);
      break;
    case AttribFormat::kFloat:
      wire::encode_glVertexAttribPointer(w, index, a.size, a.type, a.normalized, a.stride, start, data, bytes,
                                         in_buffer);
      break;
  }
  s.commit();
}

// Which instances a draw runs, for arrays that advance per instance.
struct Instances {
  int64_t count = 1;
  int64_t base = 0;
};

// Sends every enabled client array for vertices [first, first + count); an
// array with a divisor sends the elements its instances read instead.
void send_client_arrays(Stream& s, int64_t first, int64_t count, Instances instances = {}) {
  GlState& st = s.gl_state();
  send_legacy_arrays(s, first, count);
  if (count <= 0 || first < 0 || !st.has_client_arrays()) return;
  const auto& attribs = st.attribs();
  for (size_t i = 0; i < attribs.size(); ++i) {
    const ClientArray& a = attribs[i];
    if (!a.enabled || !a.client || a.pointer == nullptr) continue;
    int64_t from = first, n = count;
    if (a.divisor != 0) {
      from = instances.base;
      n = (std::max<int64_t>(instances.count, 1) + a.divisor - 1) / a.divisor;
    }
    const uint64_t start = static_cast<uint64_t>(from) * a.stride_bytes();
    const size_t bytes = static_cast<size_t>(n - 1) * a.stride_bytes() + a.element_bytes();
    encode_attrib(s, static_cast<GLuint>(i), a, start,
                  static_cast<const std::byte*>(a.pointer) + start, bytes, false);
  }
}

// GL_MAX_VERTEX_ATTRIBS (asked once per context, then cached).
GLint max_vertex_attribs() {
  constexpr GLenum kMaxVertexAttribs = 0x8869;
  GLint max = 0;
  handle_glGetIntegerv(kMaxVertexAttribs, &max);
  return max;
}

void set_pointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride,
                 const void* pointer, AttribFormat format) {
  Stream* s = current_stream();
  if (!s) return;
  GlState& st = s->gl_state();
  const bool client = st.bound_buffer(kArrayBuffer) == 0 && st.default_vertex_array();
  // GL judges a pointer into a buffer itself; a client array is the guest's.
  if (client) {
    const AttribPointer p{format, index, size, type, normalized, stride};
    const GLenum error = attrib_pointer_error(p, max_vertex_attribs(), !st.gles());
    if (error) return st.raise_error(error);
  }
  ClientArray& a = st.attrib(index);
  a = ClientArray{a.enabled, false, format, size, type, normalized, stride, pointer, a.divisor};
  if (!client) {
    encode_attrib(*s, index, a, 0, pointer, 0, true);
    return;
  }
  a.client = true;  // sent with each draw
}

// The index that restarts primitives for indices of `type`, or -1.
int64_t restart_index(const GlState& st, GLenum type) {
  const auto& r = st.primitive_restart();
  const int64_t largest = type == 0x1401 ? 0xFF : type == 0x1403 ? 0xFFFF : 0xFFFFFFFF;
  if (r.fixed_index) return largest;
  return r.enabled ? int64_t{r.index} : -1;
}

// Smallest and largest vertex index of client-side index data; the restart
// index names no vertex.
void index_range(const GlState& st, GLenum type, const void* indices, GLsizei count, int64_t* lo,
                 int64_t* hi) {
  const int64_t restart = restart_index(st, type);
  *lo = INT64_MAX;
  *hi = -1;
  for (GLsizei i = 0; i < count; ++i) {
    int64_t v = 0;
    if (type == 0x1401) v = static_cast<const uint8_t*>(indices)[i];
    else if (type == 0x1403) v = static_cast<const uint16_t*>(indices)[i];
    else v = static_cast<const uint32_t*>(indices)[i];
    if (v == restart) continue;
    *lo = std::min(*lo, v);
    *hi = std::max(*hi, v);
  }
}

struct Elements {
  GLenum mode;
  GLsizei count;
  GLenum type;
  const void* indices;
  GLsizei instances = 1;
  GLint base_vertex = 0;
  GLuint start = 0, end = 0;
  GLuint base_instance = 0;
};

// GL_INVALID_ENUM for an index type GL does not draw, raised here: its
// indices could not be measured to travel (true: refused).
bool refused_index_type(GlState& st, GLenum type) {
  if (wire::size::index_bytes(1, type) != 0) return false;
  st.raise_error(0x0500);
  return true;
}

// The indices of a draw's parts in the bound element buffer, read back from
// the host in one round trip (only when client arrays need the range they
// name): the bytes from the first part's start to the last one's end, within
// the buffer's size where this context gave it one (GL reads nothing past it).
struct BufferIndices {
  uint64_t start = 0;
  std::vector<std::byte> bytes;

  // A part's indices, or null when they were not read.
  const void* of(const void* offset, GLsizei count, GLenum type) const {
    const uint64_t from = offset_of(offset);
    const size_t size = wire::size::index_bytes(count, type);
    if (count <= 0 || from < start || from - start > bytes.size() || size > bytes.size() - (from - start)) return nullptr;
    return bytes.data() + (from - start);
  }
};

BufferIndices read_buffer_indices(GlState& st, const void* const* offsets, const GLsizei* counts, size_t n,
                                  GLenum type) {
  BufferIndices read;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; i < n; ++i) {
    if (counts[i] <= 0) continue;
    lo = std::min(lo, offset_of(offsets[i]));
    hi = std::max(hi, offset_of(offsets[i]) + wire::size::index_bytes(counts[i], type));
  }
  if (const int64_t size = st.buffer_size(st.bound_buffer(kElementArrayBuffer)); size >= 0)
    hi = std::min(hi, static_cast<uint64_t>(size));
  if (lo >= hi) return read;
  read.bytes.assign(hi - lo, std::byte{0});
  if (!read_bound_buffer(kElementArrayBuffer, lo, read.bytes.size(), read.bytes.data())) read.bytes.clear();
  read.start = lo;
  return read;
}

// Every command of the family has glDrawElements's layout.
using ElementsEncoder = void (*)(wire::Writer&, GLenum, GLsizei, GLenum, GLsizei, GLint, GLuint, GLuint,
                                 const void*, GLuint, size_t, bool);

void draw_elements(ElementsEncoder encode, const Elements& e) {
  Stream* s = current_stream();
  if (!s || s->gl_state().refused_negative(e.count) || refused_index_type(s->gl_state(), e.type)) return;
  GlState& st = s->gl_state();
  const bool in_buffer = st.bound_buffer(kElementArrayBuffer) != 0;
  if (st.has_client_arrays() || (st.default_vertex_array() && st.legacy_arrays().any_client())) {
    const BufferIndices read = in_buffer ? read_buffer_indices(st, &e.indices, &e.count, 1, e.type) : BufferIndices{};
    const void* indices = in_buffer ? read.of(e.indices, e.count, e.type) : e.indices;
    if (indices && e.count > 0) {
      int64_t lo = 0, hi = 0;
      index_range(st, e.type, indices, e.count, &lo, &hi);
      if (hi >= lo) {
        send_client_arrays(*s, lo + e.base_vertex, hi - lo + 1, {e.instances, e.base_instance});
      }
    }
  }
  encode(s->writer(), e.mode, e.count, e.type, e.instances, e.base_vertex, e.start, e.end, e.indices,
         e.base_instance, in_buffer ? 0 : wire::size::index_bytes(e.count, e.type), in_buffer);
  s->commit();
}

// glMultiDrawElements[BaseVertex]: one command, so that GL sees one draw
// (gl_DrawID counts its parts). Client arrays cover every part's vertices.
using MultiElementsEncoder = decltype(&wire::encode_glMultiDrawElements);

void multi_draw_elements(MultiElementsEncoder encode, GLenum mode, const GLsizei* counts, GLenum type,
                         const void* const* indices, GLsizei drawcount, const GLint* base_vertices) {
  Stream* s = current_stream();
  if (!s || s->gl_state().refused_negative(drawcount) || refused_index_type(s->gl_state(), type) ||
      (drawcount > 0 && (!counts || !indices)))
    return;
  GlState& st = s->gl_state();
  const bool in_buffer = st.bound_buffer(kElementArrayBuffer) != 0;
  const auto n = static_cast<size_t>(drawcount);
  if (st.has_client_arrays() || (st.default_vertex_array() && st.legacy_arrays().any_client())) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    const BufferIndices read = in_buffer ? read_buffer_indices(st, indices, counts, n, type) : BufferIndices{};
    for (size_t i = 0; i < n; ++i) {
      const void* part = in_buffer ? read.of(indices[i], counts[i], type) : indices[i];
      if (counts[i] <= 0 || !part) continue;
      int64_t first = 0, last = 0;
      index_range(st, type, part, counts[i], &first, &last);
      if (last < first) continue;
      const int64_t base = base_vertices ? base_vertices[i] : 0;
      lo = std::min(lo, first + base);
      hi = std::max(hi, last + base);
    }
    if (hi >= lo) send_client_arrays(*s, lo, hi - lo + 1);
  }
  std::vector<size_t> index_bytes(in_buffer ? 0 : n);  // offsets have none
  for (size_t i = 0; i < index_bytes.size(); ++i) index_bytes[i] = wire::size::index_bytes(counts[i], type);
  encode(s->writer(), mode, type, drawcount, counts, base_vertices, indices, n * sizeof(GLsizei),
         base_vertices ? n * sizeof(GLint) : 0, index_bytes.data(), in_buffer);
  s->commit();
}

}  // namespace

void GLAPIENTRY handle_glBindVertexArray(GLuint array) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().bind_vertex_array(array);
  wire::encode_glBindVertexArray(s->writer(), array);
  s->commit();
}

void GLAPIENTRY handle_glEnableVertexAttribArray(GLuint index) {
  Stream* s = current_stream();
  if (!s) return;
  if (s->gl_state().default_vertex_array()) s->gl_state().attrib(index).enabled = true;
  wire::encode_glEnableVertexAttribArray(s->writer(), index);
  s->commit();
}

void GLAPIENTRY handle_glDisableVertexAttribArray(GLuint index) {
  Stream* s = current_stream();
  if (!s) return;
  if (s->gl_state().default_vertex_array()) s->gl_state().attrib(index).enabled = false;
  wire::encode_glDisableVertexAttribArray(s->writer(), index);
  s->commit();
}

void GLAPIENTRY handle_glVertexAttribPointer(GLuint index, GLint size, GLenum type,
                                             GLboolean normalized, GLsizei stride,
                                             const void* pointer) {
  set_pointer(index, size, type, normalized, stride, pointer, AttribFormat::kFloat);
}

void GLAPIENTRY handle_glVertexAttribIPointer(GLuint index, GLint size, GLenum type,
                                              GLsizei stride, const void* pointer) {
  set_pointer(index, size, type, 0, stride, pointer, AttribFormat::kInteger);
}

void GLAPIENTRY handle_glVertexAttribLPointer(GLuint index, GLint size, GLenum type,
                                              GLsizei stride, const void* pointer) {
  set_pointer(index, size, type, 0, stride, pointer, AttribFormat::kLong);
}

void GLAPIENTRY handle_glGetVertexAttribPointerv(GLuint index, GLenum pname, void** pointer) {
  Stream* s = current_stream();
  if (!s || !pointer) return;
  constexpr GLenum kInvalidValue = 0x0501;
  if (index >= static_cast<GLuint>(max_vertex_attribs())) return s->gl_state().raise_error(kInvalidValue);
  if (bound_vertex_array_pointer(*s, pname, index, pointer)) return;
  (void)pname;  // GL_VERTEX_ATTRIB_ARRAY_POINTER is the only pname
  *pointer = const_cast<void*>(s->gl_state().attrib(index).pointer);
}

namespace {

// A client array's format stays in the guest until a draw sends it, so the
// guest answers it; the attribute's other state is the host's.
std::optional<GLint> client_attrib_value(GlState& st, GLuint index, GLenum pname) {
  if (!st.default_vertex_array() || index >= st.attribs().size()) return std::nullopt;
  const ClientArray& a = st.attribs()[index];
  if (!a.client) return std::nullopt;
  switch (pname) {
    case 0x8623: return a.size;  // GL_VERTEX_ATTRIB_ARRAY_SIZE, GL_BGRA included
    case 0x8624: return a.stride;
    case 0x8625: return static_cast<GLint>(a.type);
    case 0x886A: return a.normalized;
    case 0x88FD: return a.format == AttribFormat::kInteger;  // GL_VERTEX_ATTRIB_ARRAY_INTEGER
    case 0x874E: return a.format == AttribFormat::kLong;     // GL_VERTEX_ATTRIB_ARRAY_LONG
    case 0x889F: return 0;                                   // GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING
    default: return std::nullopt;
  }
}

template <typename T>
void get_attrib(void (*encode)(wire::Writer&, GLuint, GLenum), GLuint index, GLenum pname, T* params) {
  Stream* s = current_stream();
  if (!s || !params) return;
  if (const auto value = client_attrib_value(s->gl_state(), index, pname)) {
    *params = static_cast<T>(*value);
    return;
  }
  encode(s->writer(), index, pname);
  auto reply = s->roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  copy_reply(r, params, 4 * sizeof(T));  // at most the four values of GL_CURRENT_VERTEX_ATTRIB
}

}  // namespace

void GLAPIENTRY handle_glGetVertexAttribiv(GLuint index, GLenum pname, GLint* params) {
  get_attrib(wire::encode_glGetVertexAttribiv, index, pname, params);
}
void GLAPIENTRY handle_glGetVertexAttribfv(GLuint index, GLenum pname, GLfloat* params) {
  get_attrib(wire::encode_glGetVertexAttribfv, index, pname, params);
}
void GLAPIENTRY handle_glGetVertexAttribdv(GLuint index, GLenum pname, GLdouble* params) {
  get_attrib(wire::encode_glGetVertexAttribdv, index, pname, params);
}
void GLAPIENTRY handle_glGetVertexAttribIiv(GLuint index, GLenum pname, GLint* params) {
  get_attrib(wire::encode_glGetVertexAttribIiv, index, pname, params);
}
void GLAPIENTRY handle_glGetVertexAttribIuiv(GLuint index, GLenum pname, GLuint* params) {
  get_attrib(wire::encode_glGetVertexAttribIuiv, index, pname, params);
}
void GLAPIENTRY handle_glGetVertexAttribLdv(GLuint index, GLenum pname, GLdouble* params) {
  get_attrib(wire::encode_glGetVertexAttribLdv, index, pname, params);
}

void GLAPIENTRY handle_glDrawArrays(GLenum mode, GLint first, GLsizei count) {
  Stream* s = current_stream();
  if (!s) return;
  send_client_arrays(*s, first, count);
  wire::encode_glDrawArrays(s->writer(), mode, first, count);
  s->commit();
}

// One command, so that GL sees one draw; client arrays cover the vertices
// of every part.
void GLAPIENTRY handle_glMultiDrawArrays(GLenum mode, const GLint* first, const GLsizei* count,
                                         GLsizei drawcount) {
  Stream* s = current_stream();
  if (!s) return;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (GLsizei i = 0; first && count && i < drawcount; ++i) {
    if (count[i] <= 0) continue;
    lo = std::min<int64_t>(lo, first[i]);
    hi = std::max<int64_t>(hi, int64_t{first[i]} + count[i] - 1);
  }
  if (hi >= lo) send_client_arrays(*s, lo, hi - lo + 1);
  const size_t bytes = wire::size::nonnegative(drawcount) * sizeof(GLint);
  wire::encode_glMultiDrawArrays(s->writer(), mode, first, count, drawcount, bytes, bytes);
  s->commit();
}

namespace {

// The mode of part `i` of a GL_IBM_multimode_draw_arrays draw: modes lie
// `stride` bytes apart.
GLenum part_mode(const GLenum* modes, GLsizei i, GLint stride) {
  GLenum mode = 0;
  std::memcpy(&mode, reinterpret_cast<const std::byte*>(modes) + static_cast<ptrdiff_t>(i) * stride, sizeof mode);
  return mode;
}

}  // namespace

// Each part with a vertex is a draw of its own mode, as GL makes it.
void GLAPIENTRY handle_glMultiModeDrawArraysIBM(const GLenum* modes, const GLint* first, const GLsizei* count,
                                                GLsizei parts, GLint mode_stride) {
  if (!modes || !first || !count) return;
  for (GLsizei i = 0; i < parts; ++i) {
    if (count[i] > 0) handle_glDrawArrays(part_mode(modes, i, mode_stride), first[i], count[i]);
  }
}

void GLAPIENTRY handle_glMultiModeDrawElementsIBM(const GLenum* modes, const GLsizei* count, GLenum type,
                                                  const void* const* indices, GLsizei parts, GLint mode_stride) {
  if (!modes || !count || !indices) return;
  for (GLsizei i = 0; i < parts; ++i) {
    if (count[i] > 0) handle_glDrawElements(part_mode(modes, i, mode_stride), count[i], type, indices[i]);
  }
}

void GLAPIENTRY handle_glDrawArraysInstanced(GLenum mode, GLint first, GLsizei count,
                                             GLsizei instances) {
  Stream* s = current_stream();
  if (!s) return;
  send_client_arrays(*s, first, count, {instances, 0});
  wire::encode_glDrawArraysInstanced(s->writer(), mode, first, count, instances);
  s->commit();
}

void GLAPIENTRY handle_glDrawElements(GLenum mode, GLsizei count, GLenum type,
                                      const void* indices) {
  draw_elements(wire::encode_glDrawElements, {mode, count, type, indices});
}

void GLAPIENTRY handle_glDrawElementsInstanced(GLenum mode, GLsizei count, GLenum type,
                                               const void* indices, GLsizei instances) {
  draw_elements(wire::encode_glDrawElementsInstanced, {mode, count, type, indices, instances});
}

void GLAPIENTRY handle_glDrawRangeElements(GLenum mode, GLuint start, GLuint end, GLsizei count,
                                           GLenum type, const void* indices) {
  draw_elements(wire::encode_glDrawRangeElements, {mode, count, type, indices, 1, 0, start, end});
}

void GLAPIENTRY handle_glDrawElementsBaseVertex(GLenum mode, GLsizei count, GLenum type,
                                                const void* indices, GLint base_vertex) {
  draw_elements(wire::encode_glDrawElementsBaseVertex,
                {mode, count, type, indices, 1, base_vertex});
}

void GLAPIENTRY handle_glDrawRangeElementsBaseVertex(GLenum mode, GLuint start, GLuint end,
                                                     GLsizei count, GLenum type,
                                                     const void* indices, GLint base_vertex) {
  draw_elements(wire::encode_glDrawRangeElementsBaseVertex,
                {mode, count, type, indices, 1, base_vertex, start, end});
}

void GLAPIENTRY handle_glDrawElementsInstancedBaseVertex(GLenum mode, GLsizei count, GLenum type,
                                                         const void* indices, GLsizei instances,
                                                         GLint base_vertex) {
  draw_elements(wire::encode_glDrawElementsInstancedBaseVertex,
                {mode, count, type, indices, instances, base_vertex});
}

void GLAPIENTRY handle_glDrawElementsInstancedBaseInstance(GLenum mode, GLsizei count, GLenum type,
                                                           const void* indices, GLsizei instances,
                                                           GLuint base_instance) {
  draw_elements(wire::encode_glDrawElementsInstancedBaseInstance,
                {mode, count, type, indices, instances, 0, 0, 0, base_instance});
}

void GLAPIENTRY handle_glDrawElementsInstancedBaseVertexBaseInstance(
    GLenum mode, GLsizei count, GLenum type, const void* indices, GLsizei instances,
    GLint base_vertex, GLuint base_instance) {
  draw_elements(wire::encode_glDrawElementsInstancedBaseVertexBaseInstance,
                {mode, count, type, indices, instances, base_vertex, 0, 0, base_instance});
}

void GLAPIENTRY handle_glMultiDrawElements(GLenum mode, const GLsizei* counts, GLenum type,
                                           const void* const* indices, GLsizei drawcount) {
  multi_draw_elements(wire::encode_glMultiDrawElements, mode, counts, type, indices, drawcount, nullptr);
}

void GLAPIENTRY handle_glMultiDrawElementsBaseVertex(GLenum mode, const GLsizei* counts,
                                                     GLenum type, const void* const* indices,
                                                     GLsizei drawcount, const GLint* base_vertices) {
  multi_draw_elements(wire::encode_glMultiDrawElementsBaseVertex, mode, counts, type, indices, drawcount,
                      base_vertices);
}

void GLAPIENTRY handle_glDrawArraysInstancedBaseInstance(GLenum mode, GLint first, GLsizei count,
                                                         GLsizei instances, GLuint base_instance) {
  Stream* s = current_stream();
  if (!s) return;
  send_client_arrays(*s, first, count, {instances, base_instance});
  wire::encode_glDrawArraysInstancedBaseInstance(s->writer(), mode, first, count, instances,
                                                 base_instance);
  s->commit();
}

void GLAPIENTRY handle_glVertexAttribDivisor(GLuint index, GLuint divisor) {
  Stream* s = current_stream();
  if (!s) return;
  if (s->gl_state().default_vertex_array()) s->gl_state().attrib(index).divisor = divisor;
  wire::encode_glVertexAttribDivisor(s->writer(), index, divisor);
  s->commit();
}

namespace {

template <typename Encode>
void set_restart_index(GLuint index, Encode encode) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().primitive_restart().index = index;
  encode(s->writer(), index);
  s->commit();
}

}  // namespace

void GLAPIENTRY handle_glPrimitiveRestartIndex(GLuint index) {
  set_restart_index(index, wire::encode_glPrimitiveRestartIndex);
}

void GLAPIENTRY handle_glPrimitiveRestartIndexNV(GLuint index) {
  set_restart_index(index, wire::encode_glPrimitiveRestartIndexNV);
}

}  // namespace icd
