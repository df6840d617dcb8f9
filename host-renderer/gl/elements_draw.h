// The glDrawElements family, all in glDrawElements's layout
// (wire-protocol/annotations.toml [layouts]), and glMultiDrawElements
// [BaseVertex], written by guest-icd/gl/draw_entry.cpp: u32 mode, u32 type,
// i32 draw count, Data counts (i32 each), Data base vertices (i32 each; none
// for the plain form), then one Data indices a draw, all client bytes or all
// offsets.
#pragma once

#include <epoxy/gl.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "gl/read_args.h"
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
  std::vector<wire::Data> indices;   // empty unless read with the indices

  size_t size() const { return counts.size(); }
  // Part `i` as a single elements draw.
  ElementsDraw part(size_t i) const {
    ElementsDraw d;
    d.mode = mode;
    d.count = counts[i];
    d.type = type;
    d.base_vertex = base_vertices[i];
    if (i < indices.size()) d.indices = indices[i];
    return d;
  }
};

// Reads an i32 array of exactly `n` values (or none when `optional`).
inline wire::Status read_int_array(wire::Reader& r, size_t n, bool optional, std::vector<int32_t>& out) {
  wire::Data data;
  WIRE_TRY(read_data(r, data));
  out.assign(n, 0);
  if (optional && data.bytes.empty()) return {};
  if (data.bytes.size() != n * sizeof(int32_t)) {
    return wire::make_error(wire::Errc::kBadLength, "array length is not the draw count");
  }
  if (n) std::memcpy(out.data(), data.bytes.data(), data.bytes.size());
  return {};
}

// The counts and base vertices; the indices too with `with_indices`.
inline wire::Status read_multi_elements_draw(wire::Reader& r, bool with_indices, MultiElementsDraw& d) {
  GLsizei drawcount = 0;
  WIRE_TRY(read_args(r, d.mode, d.type, drawcount));
  if (drawcount < 0) return wire::make_error(wire::Errc::kBadValue, "negative draw count");
  const auto n = static_cast<size_t>(drawcount);
  if (n > r.remaining()) return wire::make_error(wire::Errc::kBadLength, "draw count past the command");
  WIRE_TRY(read_int_array(r, n, false, d.counts));
  WIRE_TRY(read_int_array(r, n, true, d.base_vertices));
  if (!with_indices) return {};
  d.indices.resize(n);
  for (auto& data : d.indices) WIRE_TRY(read_data(r, data));
  return {};
}

}  // namespace host
