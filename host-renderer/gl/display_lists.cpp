#include "gl/display_lists.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "gl/command_facts.h"
#include "gl/context_impl.h"
#include "gl/elements_draw.h"
#include "gl/read_args.h"
#include "wire/gl_decode.h"
#include "wire/gl_opcodes.h"

namespace host {

bool DisplayListCharges::compile(uint64_t bytes) {
  // Deleted objects GL has freed since may make room.
  if (account_ == nullptr || !account_->try_charge(bytes)) return false;
  charged_ += bytes;
  return true;
}

void DisplayListCharges::end(GLuint list, uint64_t bytes) {
  uint64_t& held = lists_[list];
  give_back(held);
  held = bytes;
}

void DisplayListCharges::erase(GLuint first, GLsizei range) {
  if (range <= 0) return;  // GL_INVALID_VALUE, or nothing
  const uint64_t last = uint64_t{first} + static_cast<uint64_t>(range) - 1;
  for (auto it = lists_.begin(); it != lists_.end();) {
    if (it->first < first || it->first > last) {
      ++it;
      continue;
    }
    give_back(it->second);
    it = lists_.erase(it);
  }
}

uint64_t DisplayListCharges::bytes_of(GLuint list) const {
  auto it = lists_.find(list);
  return it == lists_.end() ? 0 : it->second;
}

void DisplayListCharges::give_back(uint64_t bytes) {
  bytes = std::min(bytes, charged_);
  charged_ -= bytes;
  if (account_) account_->release(bytes);
}

namespace {

// Commands GL runs at once even while compiling a list (annotations.toml
// [facts]) are never charged, nor refused, so a guest waiting for an answer
// always gets one. What is no GL command is not compiled either.
bool runs_while_compiling(uint32_t opcode) {
  return wire::gl_command_info(opcode) == nullptr || has_fact(opcode, wire::kRunsWhileCompiling);
}

}  // namespace

bool admit_list_command(GlContextState::Impl& st, uint32_t opcode, uint64_t bytes) {
  if (st.compiling_list == 0 || runs_while_compiling(opcode)) return true;
  if (!st.list_full && st.share->lists.compile(bytes)) {
    st.compiled_bytes += bytes;
    return true;
  }
  st.list_full = true;  // the list is compiled no further, up to glEndList
  st.refused_error = GL_OUT_OF_MEMORY;
  return false;
}

namespace {

template <typename T>
int64_t scalar_at(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return static_cast<int64_t>(v);
}

// GL_2_BYTES, GL_3_BYTES, GL_4_BYTES: big-endian unsigned values.
int64_t big_endian_at(const std::byte* p, size_t bytes) {
  int64_t v = 0;
  for (size_t k = 0; k < bytes; ++k) v = v * 256 + std::to_integer<uint8_t>(p[k]);
  return v;
}

// The value at `i` of glCallLists' names of `type`, before the list base
// is added; none for a float that is no integer GL could take.
std::optional<int64_t> list_offset(GLenum type, const std::byte* names, size_t i) {
  const std::byte* p = names + i * list_name_bytes(type);
  switch (type) {
    case GL_BYTE: return scalar_at<int8_t>(p);
    case GL_UNSIGNED_BYTE: return scalar_at<uint8_t>(p);
    case GL_SHORT: return scalar_at<int16_t>(p);
    case GL_UNSIGNED_SHORT: return scalar_at<uint16_t>(p);
    case GL_INT: return scalar_at<int32_t>(p);
    case GL_UNSIGNED_INT: return scalar_at<uint32_t>(p);
    case GL_FLOAT: {
      float v;
      std::memcpy(&v, p, sizeof v);
      if (!(v > -2147483648.0f && v < 4294967296.0f)) return std::nullopt;  // NaN too
      return static_cast<int64_t>(v);
    }
    default: return big_endian_at(p, list_name_bytes(type));
  }
}

// Whether every list glCallLists names is held, from the list base GL has
// now. Inside a glBegin GL runs (GL_COMPILE_AND_EXECUTE) a GL may refuse the
// query; then the base is unknown and so are the lists.
wire::Result<bool> called_lists_held(const DisplayListCharges& lists, wire::Reader& r) {
  GLsizei n = 0;
  GLenum type = 0;
  wire::Data names;
  WIRE_TRY(read_args(r, n, type));
  WIRE_TRY(read_data(r, names));
  const size_t each = list_name_bytes(type);
  if (n <= 0 || each == 0 || names.bytes.size() < static_cast<size_t>(n) * each) return true;  // GL's error
  GLint base = -1;
  glGetIntegerv(GL_LIST_BASE, &base);
  if (base < 0) return false;
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    const auto offset = list_offset(type, names.bytes.data(), i);
    if (!offset) return false;
    const int64_t name = base + *offset;
    if (name <= 0 || name > UINT32_MAX || !lists.holds(static_cast<GLuint>(name))) return false;
  }
  return true;
}

// Draws from the vertex arrays, which GL refuses inside glBegin/glEnd.
bool is_array_draw(uint32_t opcode) {
  const wire::GlDraw kind = draw_kind(opcode);
  return kind != wire::GlDraw::kNone && kind != wire::GlDraw::kImmediate && kind != wire::GlDraw::kOther;
}

}  // namespace

wire::Result<bool> list_calls_fit(const GlContextState::Impl& st, uint32_t opcode, wire::Reader r) {
  if (st.compiling_list == 0 || !st.list_primitive_open) return true;
  if (is_array_draw(opcode)) return false;  // GL_INVALID_OPERATION when it would run
  const auto op = static_cast<wire::GlOp>(opcode);
  if (op == wire::GlOp::glCallLists) return called_lists_held(st.share->lists, r);
  if (op != wire::GlOp::glCallList) return true;
  wire::Args_glCallList a{};
  WIRE_TRY(wire::decode_glCallList(r, a));
  return st.share->lists.holds(a.list);
}

void track_list_bounds(GlContextState::Impl& st, uint32_t opcode) {
  const auto op = static_cast<wire::GlOp>(opcode);
  if ((op == wire::GlOp::glBegin || op == wire::GlOp::glEnd) && st.compiling_list != 0) {
    // Compiled into the list whatever GL thinks of it (admit_list_command
    // let it in), so only a compiled glEnd closes a compiled glBegin.
    st.list_primitive_open = op == wire::GlOp::glBegin;
  } else if (op == wire::GlOp::glNewList && st.compiling_list == 0 && !st.in_begin) {
    // GL may have refused the list (a bad mode, one already open).
    GLint list = 0;
    glGetIntegerv(GL_LIST_INDEX, &list);
    st.compiling_list = static_cast<GLuint>(list);
    st.compiled_bytes = 0;
    st.list_full = false;
    st.list_primitive_open = false;
  } else if (op == wire::GlOp::glEndList && st.compiling_list != 0 && !st.in_begin) {
    st.share->lists.end(st.compiling_list, st.compiled_bytes);
    st.compiling_list = 0;
    st.compiled_bytes = 0;
    st.list_primitive_open = false;
  }
}

}  // namespace host
