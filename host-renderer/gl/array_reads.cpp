#include "gl/array_reads.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "gl/command_facts.h"
#include "gl/elements_draw.h"
#include "wire/gl_decode.h"
#include "wire/gl_opcodes.h"
#include "wire/sizes.h"

namespace host {
namespace {

using wire::GlOp;

// Where an enabled array reads: `buffer` from `offset`, a vertex every
// `stride` bytes, `element` bytes each.
struct ArrayExtent {
  GLuint buffer;
  int64_t offset, stride, element;
};

bool packed(GLenum type) {
  return type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV ||
         type == GL_UNSIGNED_INT_10F_11F_11F_REV;
}

ArrayExtent extent(GLuint buffer, int64_t offset, int64_t stride, GLint size, GLenum type) {
  const int64_t element = packed(type) ? 4 : (size == GL_BGRA ? 4 : size) * static_cast<int64_t>(wire::size::vertex_type_bytes(type));
  return {buffer, offset, stride != 0 ? stride : element, element};
}

// False when GL answers no query (inside glBegin/glEnd).
bool generic_arrays(GlContextState::Impl& st, std::vector<ArrayExtent>& out) {
  if (st.gles1()) return true;  // fixed-function arrays only
  GLint count = -1;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &count);
  if (count < 0) return false;
  for (GLuint i = 0; i < static_cast<GLuint>(std::clamp(count, 0, 64)); ++i) {
    GLint enabled = 0, buffer = 0, size = 0, type = 0, stride = 0;
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
    if (!enabled) continue;
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
    void* pointer = nullptr;
    glGetVertexAttribPointerv(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &pointer);
    int64_t offset = static_cast<int64_t>(reinterpret_cast<uintptr_t>(pointer));
    if (st.version() >= 43) {
      // The binding point holds the stride and most of the offset.
      GLint binding = 0, relative = 0;
      glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_BINDING, &binding);
      glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_RELATIVE_OFFSET, &relative);
      GLint64 base = 0, step = 0;
      glGetInteger64i_v(GL_VERTEX_BINDING_OFFSET, static_cast<GLuint>(binding), &base);
      glGetInteger64i_v(GL_VERTEX_BINDING_STRIDE, static_cast<GLuint>(binding), &step);
      offset = base + relative;
      out.push_back(extent(static_cast<GLuint>(buffer), offset, step, size, static_cast<GLenum>(type)));
      // A stride of 0 at the binding point reads every vertex at one place.
      if (step == 0) out.back().stride = 0;
      continue;
    }
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
    out.push_back(extent(static_cast<GLuint>(buffer), offset, stride, size, static_cast<GLenum>(type)));
  }
  return true;
}

enum ApiBits : uint8_t { kDesktop = 1, kGles1 = 2, kBoth = 3 };

// A fixed-function array's state queries (size or type 0: fixed values).
struct LegacyQueries {
  GLenum cap, buffer, pointer, stride, size, type;
  GLint fixed_size;
  GLenum fixed_type;
  uint8_t apis;  // ApiBits: the contexts that have it
};

constexpr LegacyQueries kLegacy[] = {
    {GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_BUFFER_BINDING, GL_VERTEX_ARRAY_POINTER,
     GL_VERTEX_ARRAY_STRIDE, GL_VERTEX_ARRAY_SIZE, GL_VERTEX_ARRAY_TYPE, 0, 0, kBoth},
    {GL_NORMAL_ARRAY, GL_NORMAL_ARRAY_BUFFER_BINDING, GL_NORMAL_ARRAY_POINTER,
     GL_NORMAL_ARRAY_STRIDE, 0, GL_NORMAL_ARRAY_TYPE, 3, 0, kBoth},
    {GL_COLOR_ARRAY, GL_COLOR_ARRAY_BUFFER_BINDING, GL_COLOR_ARRAY_POINTER,
     GL_COLOR_ARRAY_STRIDE, GL_COLOR_ARRAY_SIZE, GL_COLOR_ARRAY_TYPE, 0, 0, kBoth},
    {GL_SECONDARY_COLOR_ARRAY, GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING,
     GL_SECONDARY_COLOR_ARRAY_POINTER, GL_SECONDARY_COLOR_ARRAY_STRIDE,
     GL_SECONDARY_COLOR_ARRAY_SIZE, GL_SECONDARY_COLOR_ARRAY_TYPE, 0, 0, kDesktop},
    {GL_FOG_COORD_ARRAY, GL_FOG_COORD_ARRAY_BUFFER_BINDING, GL_FOG_COORD_ARRAY_POINTER,
     GL_FOG_COORD_ARRAY_STRIDE, 0, GL_FOG_COORD_ARRAY_TYPE, 1, 0, kDesktop},
    {GL_INDEX_ARRAY, GL_INDEX_ARRAY_BUFFER_BINDING, GL_INDEX_ARRAY_POINTER,
     GL_INDEX_ARRAY_STRIDE, 0, GL_INDEX_ARRAY_TYPE, 1, 0, kDesktop},
    {GL_EDGE_FLAG_ARRAY, GL_EDGE_FLAG_ARRAY_BUFFER_BINDING, GL_EDGE_FLAG_ARRAY_POINTER,
     GL_EDGE_FLAG_ARRAY_STRIDE, 0, 0, 1, GL_UNSIGNED_BYTE, kDesktop},
    {GL_POINT_SIZE_ARRAY_OES, GL_POINT_SIZE_ARRAY_BUFFER_BINDING_OES, GL_POINT_SIZE_ARRAY_POINTER_OES,
     GL_POINT_SIZE_ARRAY_STRIDE_OES, 0, GL_POINT_SIZE_ARRAY_TYPE_OES, 1, 0, kGles1},
    {GL_TEXTURE_COORD_ARRAY, GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING,
     GL_TEXTURE_COORD_ARRAY_POINTER, GL_TEXTURE_COORD_ARRAY_STRIDE, GL_TEXTURE_COORD_ARRAY_SIZE,
     GL_TEXTURE_COORD_ARRAY_TYPE, 0, 0, kBoth},
};

void legacy_array(const LegacyQueries& q, std::vector<ArrayExtent>& out) {
  if (!glIsEnabled(q.cap)) return;
  GLint buffer = 0, stride = 0, size = q.fixed_size, type = static_cast<GLint>(q.fixed_type);
  glGetIntegerv(q.buffer, &buffer);
  glGetIntegerv(q.stride, &stride);
  if (q.size) glGetIntegerv(q.size, &size);
  if (q.type) glGetIntegerv(q.type, &type);
  void* pointer = nullptr;
  glGetPointerv(q.pointer, &pointer);
  out.push_back(extent(static_cast<GLuint>(buffer),
                       static_cast<int64_t>(reinterpret_cast<uintptr_t>(pointer)), stride, size,
                       static_cast<GLenum>(type)));
}

void legacy_arrays(GlContextState::Impl& st, std::vector<ArrayExtent>& out) {
  const uint8_t api = st.gles1() ? kGles1 : kDesktop;
  for (const LegacyQueries& q : kLegacy) {
    if (q.cap != GL_TEXTURE_COORD_ARRAY && (q.apis & api)) legacy_array(q, out);
  }
  GLint units = 0, active = GL_TEXTURE0;
  glGetIntegerv(st.gles1() ? GL_MAX_TEXTURE_UNITS : GL_MAX_TEXTURE_COORDS, &units);
  glGetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &active);
  for (GLint unit = 0; unit < std::clamp(units, 0, 32); ++unit) {
    glClientActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    legacy_array(kLegacy[std::size(kLegacy) - 1], out);
  }
  glClientActiveTexture(static_cast<GLenum>(active));
}

int64_t buffer_size(GlContextState::Impl& st, GLuint buffer) {
  GLint64 size = 0;
  if (st.version() >= 45) {
    glGetNamedBufferParameteri64v(buffer, GL_BUFFER_SIZE, &size);
    return size;
  }
  GLint bound = 0;
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &bound);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  if (st.gles1()) {  // no 64-bit query
    GLint small = 0;
    glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &small);
    size = small;
  } else {
    glGetBufferParameteri64v(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
  }
  glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(bound));
  return size;
}

// The last vertex every enabled array holds in its buffer (INT64_MAX with
// none enabled, -1 when one cannot be read at all: an enabled array without
// a buffer would be a host pointer).
int64_t last_held_vertex(GlContextState::Impl& st) {
  std::vector<ArrayExtent> arrays;
  if (!generic_arrays(st, arrays)) return -1;
  legacy_arrays(st, arrays);
  int64_t last = INT64_MAX;
  for (const ArrayExtent& a : arrays) {
    const int64_t room = a.buffer == 0 ? -1 : buffer_size(st, a.buffer) - a.offset - a.element;
    if (a.buffer == 0 || a.offset < 0 || room < 0) return -1;
    if (a.stride > 0) last = std::min(last, room / a.stride);
  }
  return last;
}

// Primitive restart as GL has it now: an index equal to the restart index
// names no vertex, and GL reads none for it (OpenGL 4.6 compatibility,
// 10.3.6). Mesa keeps GL_PRIMITIVE_RESTART_NV in GL_PRIMITIVE_RESTART.
struct Restart {
  bool fixed_index = false;  // GL_PRIMITIVE_RESTART_FIXED_INDEX: the type's largest value
  int64_t index = -1;        // GL_PRIMITIVE_RESTART_INDEX while enabled, else -1

  int64_t of(GLenum type) const {
    if (!fixed_index) return index;
    return type == GL_UNSIGNED_BYTE ? 0xFF : type == GL_UNSIGNED_SHORT ? 0xFFFF : 0xFFFFFFFF;
  }
};

Restart current_restart(GlContextState::Impl& st) {
  Restart r;
  if (st.version() >= 43) r.fixed_index = glIsEnabled(GL_PRIMITIVE_RESTART_FIXED_INDEX);
  if (st.version() >= 31 && glIsEnabled(GL_PRIMITIVE_RESTART)) {
    GLint index = 0;
    glGetIntegerv(GL_PRIMITIVE_RESTART_INDEX, &index);
    r.index = static_cast<GLuint>(index);
  }
  return r;
}

// last_held_vertex and the restart index, asked of GL again only after a
// command of the share group (shared buffers change in any of its contexts)
// that may change them: both move the array epoch.
int64_t last_held_vertex_cached(GlContextState::Impl& st) {
  if (st.held_vertex_epoch != st.share->array_epoch) {
    st.held_vertex = last_held_vertex(st);
    st.held_restart_index = current_restart(st).index;
    st.held_vertex_epoch = st.share->array_epoch;
  }
  return st.held_vertex;
}

// The vertices a draw reads, lowest to highest (none when highest < lowest),
// or unknown when they cannot be worked out without reading past a source.
struct VertexSpan {
  bool known = true;
  int64_t lowest = 0, highest = -1;

  void add(int64_t low, int64_t high) {
    if (high < low) return;
    lowest = highest < lowest ? low : std::min(lowest, low);
    highest = std::max(highest, high);
  }
  void add_run(int64_t first, int64_t count) { add(first, first + count - 1); }
  // Whether arrays holding vertices 0 to `last` hold every vertex read; a
  // negative vertex would be read before the array's start.
  bool within(int64_t last) const { return known && (highest < lowest || (lowest >= 0 && highest <= last)); }
};


// The vertices `count` indices of `type` name, `base_vertex` added.
template <typename T>
VertexSpan index_span(const std::byte* p, size_t count, int64_t base_vertex, int64_t restart) {
  VertexSpan span;
  for (size_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    if (int64_t{v} == restart) continue;
    span.add(int64_t{v} + base_vertex, int64_t{v} + base_vertex);
  }
  return span;
}

VertexSpan index_span(GLenum type, const std::byte* p, size_t count, int64_t base_vertex,
                      const Restart& restart) {
  switch (type) {
    case GL_UNSIGNED_BYTE: return index_span<uint8_t>(p, count, base_vertex, restart.of(type));
    case GL_UNSIGNED_SHORT: return index_span<uint16_t>(p, count, base_vertex, restart.of(type));
    default: return index_span<uint32_t>(p, count, base_vertex, restart.of(type));
  }
}

// The vertices an elements draw reads; unknown when its indices cannot be
// read without reading past their source.
VertexSpan elements_span(const ElementsDraw& d, const Restart& restart) {
  const size_t bytes = wire::size::index_bytes(d.count, d.type);
  if (bytes == 0) return VertexSpan{};  // nothing read, or GL's error
  VertexSpan span{.known = false};
  if (d.indices.kind != wire::DataKind::kBufferOffset) {
    if (d.indices.bytes.size() >= bytes) {
      span = index_span(d.type, d.indices.bytes.data(), d.count, d.base_vertex, restart);
    }
  } else {
    GLint buffer = 0;
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &buffer);
    GLint64 held = 0;
    if (buffer != 0) glGetBufferParameteri64v(GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_SIZE, &held);
    const auto offset = static_cast<int64_t>(d.indices.offset);
    if (buffer != 0 && offset >= 0 && offset + static_cast<int64_t>(bytes) <= held) {
      const void* p = glMapBufferRange(GL_ELEMENT_ARRAY_BUFFER, offset, static_cast<GLsizeiptr>(bytes),
                                       GL_MAP_READ_BIT);
      const auto* indices = static_cast<const std::byte*>(p);
      if (p) span = index_span(d.type, indices, d.count, d.base_vertex, restart);
      if (p) glUnmapBuffer(GL_ELEMENT_ARRAY_BUFFER);
    }
  }
  return span;
}

wire::Result<VertexSpan> elements_span(wire::Reader& r, const Restart& restart) {
  ElementsDraw d;
  WIRE_TRY(read_elements_draw(r, d));
  return elements_span(d, restart);
}

// Every part of a glMultiDrawElements: unknown when any part is.
wire::Result<VertexSpan> multi_elements_span(wire::Reader& r, const Restart& restart) {
  MultiElementsDraw d;
  WIRE_TRY(read_multi_elements_draw(r, d));
  VertexSpan all;
  for (size_t i = 0; i < d.size(); ++i) {
    const VertexSpan part = elements_span(d.part(i), restart);
    all.known = all.known && part.known;
    all.add(part.lowest, part.highest);
  }
  return all;
}

// The vertices glMultiDrawArrays reads; unknown when its arrays of firsts
// and counts are shorter than it says.
wire::Result<VertexSpan> multi_draw_span(wire::Reader& r) {
  wire::Args_glMultiDrawArrays a{};
  WIRE_TRY(wire::decode_glMultiDrawArrays(r, a));
  if (a.drawcount <= 0) return VertexSpan{};
  const auto n = static_cast<size_t>(a.drawcount);
  if (a.first.bytes.size() < n * sizeof(GLint) || a.count.bytes.size() < n * sizeof(GLsizei)) {
    return VertexSpan{.known = false};
  }
  VertexSpan span;
  for (size_t i = 0; i < n; ++i) {
    GLint first = 0;
    GLsizei count = 0;
    std::memcpy(&first, a.first.bytes.data() + i * sizeof first, sizeof first);
    std::memcpy(&count, a.count.bytes.data() + i * sizeof count, sizeof count);
    span.add_run(first, count);
  }
  return span;
}

template <typename Args>
wire::Result<Args> decoded(wire::Status (*decode)(wire::Reader&, Args&), wire::Reader& r) {
  Args a{};
  WIRE_TRY(decode(r, a));
  return a;
}

// The vertices a draw being compiled into a list reads; unknown for the
// draws whose reads the host does not work out (indirect, transform feedback).
wire::Result<VertexSpan> compiled_draw_span(GlContextState::Impl& st, wire::GlDraw kind,
                                            wire::Reader& r) {
  switch (kind) {
    case wire::GlDraw::kArrays: {
      // The three glDrawArrays forms start with mode, first, count.
      auto a = decoded(wire::decode_glDrawArrays, r);
      if (!a) return a.error();
      VertexSpan span;
      span.add_run(a->first, a->count);
      return span;
    }
    case wire::GlDraw::kMultiArrays: return multi_draw_span(r);
    case wire::GlDraw::kElements: return elements_span(r, current_restart(st));
    case wire::GlDraw::kMultiElements: return multi_elements_span(r, current_restart(st));
    default: return VertexSpan{.known = false};
  }
}

}  // namespace

wire::Result<bool> array_reads_fit(GlContextState::Impl& st, uint32_t opcode, wire::Reader r) {
  if (!st.has_fixed_function_arrays()) return true;  // no display lists, no glArrayElement
  const auto op = static_cast<GlOp>(opcode);
  if (!has_fact(opcode, wire::kKeepsArrays)) ++st.share->array_epoch;
  if (op == GlOp::glBegin) {
    // GL answers no query inside glBegin/glEnd: what the arrays hold is
    // known now, and they cannot change before glEnd.
    st.begin_last_vertex = last_held_vertex_cached(st);
    st.begin_restart_index = st.held_restart_index;
    st.in_begin = true;
    return true;
  }
  if (op == GlOp::glArrayElement) {
    auto a = decoded(wire::decode_glArrayElement, r);
    if (!a) return a.error();
    // Another context of the group may have changed a buffer since glBegin:
    // then GL is asked again, and inside a glBegin it answers nothing.
    const bool known = st.in_begin && st.held_vertex_epoch == st.share->array_epoch;
    // The restart index restarts the primitive and reads no vertex.
    if (a->i == (st.in_begin ? st.begin_restart_index : current_restart(st).index)) return true;
    VertexSpan span;
    span.add(a->i, a->i);
    return span.within(known ? st.begin_last_vertex : last_held_vertex(st));
  }
  if (!has_fact(opcode, wire::kAllowedInBegin)) st.in_begin = false;
  const wire::GlDraw kind = draw_kind(opcode);
  // Draws run now unless a list is being compiled (display_lists.h tracks it).
  if (kind == wire::GlDraw::kNone || st.compiling_list == 0) return true;
  auto span = compiled_draw_span(st, kind, r);
  if (!span) return span.error();
  return span->within(last_held_vertex(st));
}

}  // namespace host
