#include "gl/dispatch_support.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace host {
namespace {

struct Arena {
  std::deque<std::vector<std::byte>> blocks;
  size_t used = 0;
};

thread_local Arena t_arena;

wire::Error short_payload(const char* what, size_t have, size_t need) {
  return wire::make_error(wire::Errc::kBadLength, std::string(what) + ": " +
                                                      std::to_string(have) + " bytes, needs " +
                                                      std::to_string(need));
}

}  // namespace

void* scratch(size_t bytes) {
  Arena& a = t_arena;
  if (a.used == a.blocks.size()) a.blocks.emplace_back();
  auto& block = a.blocks[a.used++];
  block.assign(std::max<size_t>(bytes, 1), std::byte{0});
  return block.data();
}

void reset_scratch() { t_arena.used = 0; }

bool buffer_bound(GLenum binding_query) {
  GLint bound = 0;
  glGetIntegerv(binding_query, &bound);
  return bound != 0;
}

bool pixel_buffer_bound(GlContextState::Impl& st, GLenum binding_query) {
  if (st.gles && st.version() < 30) return false;
  return buffer_bound(binding_query);
}

void refuse_call(GlContextState::Impl& st, GLenum error) {
  if (st.refused_error == GL_NO_ERROR) st.refused_error = error;
}

GLenum texture_target(GlContextState::Impl& st, GLuint texture) {
  if (texture == 0) return 0;
  const GLenum pending = glGetError();
  if (pending != GL_NO_ERROR) refuse_call(st, pending);
  GLint target = 0;
  glGetTextureParameteriv(texture, GL_TEXTURE_TARGET, &target);
  return glGetError() == GL_NO_ERROR ? static_cast<GLenum>(target) : 0;
}

wire::Result<void*> null_data_zeros(GlContextState::Impl& st, size_t bytes) {
  if (bytes > kMaxReplyArrayBytes) {
    return wire::make_error(wire::Errc::kLimit, "null data of " + std::to_string(bytes) + " bytes");
  }
  return st.charge_reply(bytes) ? scratch(bytes) : nullptr;
}

namespace {

// NULL image data (a compressed image, say): with an unpack buffer bound,
// offset 0 into it, which GL checks; otherwise zeros.
wire::Result<const void*> null_unpack_data(GlContextState::Impl& st, size_t bytes) {
  if (pixel_buffer_bound(st, GL_PIXEL_UNPACK_BUFFER_BINDING)) return static_cast<const void*>(nullptr);
  auto zeros = null_data_zeros(st, bytes);
  if (!zeros) return zeros.error();
  if (!*zeros) return wire::make_error(wire::Errc::kLimit, "null image data past the guest's memory");
  return static_cast<const void*>(*zeros);
}

}  // namespace

wire::Result<const void*> input_array(DispatchEnv& env, const wire::Data& data, size_t count,
                                      size_t elem, size_t pad, bool nullable, bool from_unpack) {
  auto needed = wire::checked_mul(count, elem, "count", "element size");
  if (!needed) return needed.error();
  switch (data.kind) {
    case wire::DataKind::kNull:
      if (*needed == 0 && pad == 0) return static_cast<const void*>(nullptr);
      if (nullable) return static_cast<const void*>(nullptr);
      if (from_unpack) return null_unpack_data(env.state.impl(), *needed);
      return wire::make_error(wire::Errc::kBadValue, "null array of " + std::to_string(*needed));
    case wire::DataKind::kBufferOffset:
      if (!from_unpack || !pixel_buffer_bound(env.state.impl(), GL_PIXEL_UNPACK_BUFFER_BINDING)) {
        return wire::make_error(wire::Errc::kBadValue, "buffer offset without a bound buffer");
      }
      return reinterpret_cast<const void*>(static_cast<uintptr_t>(data.offset));
    case wire::DataKind::kInline:
    case wire::DataKind::kHeap:
      break;
  }
  if (data.bytes.size() < *needed) return short_payload("array", data.bytes.size(), *needed);
  const size_t padded = std::max(*needed, pad * elem);
  if (data.bytes.size() >= padded) return static_cast<const void*>(data.bytes.data());
  void* copy = scratch(padded);
  std::memcpy(copy, data.bytes.data(), data.bytes.size());
  return static_cast<const void*>(copy);
}

wire::Result<const GLchar*> input_string(const wire::Data& data) {
  if (data.kind == wire::DataKind::kNull) return static_cast<const GLchar*>(nullptr);
  if (data.kind == wire::DataKind::kBufferOffset || data.bytes.empty() ||
      data.bytes.back() != std::byte{0}) {
    return wire::make_error(wire::Errc::kBadValue, "string not NUL-terminated");
  }
  return reinterpret_cast<const GLchar*>(data.bytes.data());
}

wire::Result<const GLchar*> input_counted_string(DispatchEnv&, const wire::Data& data,
                                                 GLsizei length) {
  if (data.kind == wire::DataKind::kNull) return static_cast<const GLchar*>(nullptr);
  if (data.kind == wire::DataKind::kBufferOffset) {
    return wire::make_error(wire::Errc::kBadValue, "string as a buffer offset");
  }
  if (length >= 0 && data.bytes.size() < static_cast<size_t>(length)) {
    return short_payload("string", data.bytes.size(), static_cast<size_t>(length));
  }
  // Always NUL-terminate: with length < 0 GL reads up to the terminator.
  auto* copy = static_cast<GLchar*>(scratch(data.bytes.size() + 1));
  std::memcpy(copy, data.bytes.data(), data.bytes.size());
  return static_cast<const GLchar*>(copy);
}

wire::Result<OutBuffer> output_array(DispatchEnv& env, size_t count, size_t elem, size_t pad) {
  auto bytes = wire::checked_mul(count, elem, "count", "element size");
  if (!bytes) return bytes.error();
  if (*bytes > kMaxReplyArrayBytes) {
    return wire::make_error(wire::Errc::kLimit, "reply array of " + std::to_string(*bytes));
  }
  const size_t room = std::max(*bytes, pad * elem);
  if (!env.state.impl().charge_reply(room)) return OutBuffer{nullptr, 0, true};
  return OutBuffer{scratch(room), *bytes};
}

wire::Status refused_reply(DispatchEnv& env, size_t outputs) {
  for (size_t i = 0; i < outputs; ++i) env.reply.put_data(nullptr, 0);
  return {};
}

wire::Result<std::span<GLuint>> translate_array(GlContextState::Impl& st, ObjectType t,
                                                const void* guest, size_t count, NameUse use) {
  auto* out = static_cast<GLuint*>(scratch(count * sizeof(GLuint)));
  const auto* in = static_cast<const GLuint*>(guest);
  for (size_t i = 0; i < count; ++i) {
    GLuint g;
    std::memcpy(&g, in + i, sizeof g);
    WIRE_TRY(st.translate(t, g, use, &out[i]));
  }
  return std::span<GLuint>(out, count);
}

void forget_array(GlContextState::Impl& st, ObjectType t, const void* guest, size_t count) {
  const auto* in = static_cast<const GLuint*>(guest);
  for (size_t i = 0; i < count; ++i) {
    GLuint g;
    std::memcpy(&g, in + i, sizeof g);
    st.forget(t, g);
  }
}

bool texture_unit_exists(GLenum unit) {
  GLint units = 0, coords = 0;
  glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
  glGetIntegerv(GL_MAX_TEXTURE_COORDS, &coords);
  return unit >= GL_TEXTURE0 && unit - GL_TEXTURE0 < static_cast<GLuint>(std::max(units, coords));
}

}  // namespace host
