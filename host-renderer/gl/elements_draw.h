// The glDrawElements family, all in glDrawElements's layout, and
// glMultiDrawElements[BaseVertex], in glMultiDrawElements's
// (wire-protocol/annotations.toml [layouts]).
#pragma once

#include <epoxy/gl.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "wire/gl_decode.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/sizes.h"  // index_bytes: what GL reads of the indices

namespace host {

struct ElementsDraw {
  GLenum mode = 0;
  GLsizei count = 0;
  GLenum type = 0;
  GLsizei instances = 1;
  GLint base_vertex = 0;
  GLuint start = 0, end = 0;
  wire::Data indices;
  GLuint base_instance = 0;
};

inline wire::Status read_elements_draw(wire::Reader& r, ElementsDraw& d) {
  wire::Args_glDrawElements a{};
  WIRE_TRY(wire::decode_glDrawElements(r, a));
  d = ElementsDraw{a.mode, a.count, a.type, a.instancecount, a.basevertex, a.start, a.end, a.indices,
                   a.baseinstance};
  return {};
}

struct MultiElementsDraw {
  GLenum mode = 0, type = 0;
  std::vector<GLsizei> counts;
  std::vector<GLint> base_vertices;  // one a draw, zeros for the plain form
  std::vector<wire::Data> indices;   // one a draw

  size_t size() const { return counts.size(); }
  // Part `i` as a single elements draw.
  ElementsDraw part(size_t i) const {
    ElementsDraw d;
    d.mode = mode;
    d.count = counts[i];
    d.type = type;
    d.base_vertex = base_vertices[i];
    d.indices = indices[i];
    return d;
  }
};

// An i32 array of exactly `n` values (or none when `optional`).
inline wire::Status int_array(const wire::Data& data, size_t n, bool optional, std::vector<int32_t>& out) {
  out.assign(n, 0);
  if (optional && data.bytes.empty()) return {};
  if (data.bytes.size() != n * sizeof(int32_t)) {
    return wire::make_error(wire::Errc::kBadLength, "array length is not the draw count");
  }
  if (n) std::memcpy(out.data(), data.bytes.data(), data.bytes.size());
  return {};
}

// Either form of glMultiDrawElements, its arrays checked against the draw
// count (the decoder refuses a negative one).
inline wire::Status read_multi_elements_draw(wire::Reader& r, MultiElementsDraw& d) {
  wire::Args_glMultiDrawElements a{};  // the layout of both forms
  WIRE_TRY(wire::decode_glMultiDrawElements(r, a));
  d.mode = a.mode;
  d.type = a.type;
  const auto n = static_cast<size_t>(a.drawcount);
  WIRE_TRY(int_array(a.counts, n, false, d.counts));
  WIRE_TRY(int_array(a.basevertex, n, true, d.base_vertices));
  d.indices = std::move(a.indices);
  return {};
}

}  // namespace host
