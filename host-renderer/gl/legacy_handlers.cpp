// Legacy desktop GL: display lists; and the fixed-function client arrays,
// which OpenGL ES 1.x has too (with glPointSizePointerOES).
//
// Display list names need no map: a guest's host contexts hold only that
// guest's lists, and glListBase offsets in glCallLists make a map
// impossible to apply anyway, so the guest's names are used as they are.
//
// Wire layouts: wire-protocol/annotations.toml [layouts].
#include <epoxy/gl.h>

#include <algorithm>
#include <span>

#include "gl/client_arrays.h"
#include "gl/display_lists.h"
#include "gl/legacy_arrays.h"
#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "gl/read_args.h"

namespace host {
namespace {

// Scratch buffers of the legacy arrays follow the generic attributes' in
// the context's scratch list (draw_handlers.cpp uses indices below 64).
constexpr size_t kScratchBase = 64;
constexpr uint32_t kMaxTexUnits = 8;
constexpr GLsizei kMaxCallLists = 1 << 24;  // names one glCallLists / glDeleteLists may cover

enum class Slot { kVertex, kNormal, kColor, kSecondaryColor, kFogCoord, kIndex, kEdgeFlag, kPointSize, kTexCoord };

// The arrays of each API besides texture coordinates.
constexpr Slot kDesktopSlots[] = {Slot::kVertex,   Slot::kNormal, Slot::kColor,   Slot::kSecondaryColor,
                                  Slot::kFogCoord, Slot::kIndex,  Slot::kEdgeFlag};
constexpr Slot kGles1Slots[] = {Slot::kVertex, Slot::kNormal, Slot::kColor, Slot::kPointSize};

// Every pointer command has glVertexPointer's layout (annotations.toml).
using Pointer = wire::Args_glVertexPointer;

void set_pointer(Slot slot, const Pointer& p, const void* at) {
  switch (slot) {
    case Slot::kVertex: glVertexPointer(p.size, p.type, p.stride, at); break;
    case Slot::kNormal: glNormalPointer(p.type, p.stride, at); break;
    case Slot::kColor: glColorPointer(p.size, p.type, p.stride, at); break;
    case Slot::kSecondaryColor: glSecondaryColorPointer(p.size, p.type, p.stride, at); break;
    case Slot::kFogCoord: glFogCoordPointer(p.type, p.stride, at); break;
    case Slot::kIndex: glIndexPointer(p.type, p.stride, at); break;
    case Slot::kEdgeFlag: glEdgeFlagPointer(p.stride, at); break;
    case Slot::kPointSize: glPointSizePointerOES(p.type, p.stride, at); break;
    case Slot::kTexCoord: {
      // The guest names the unit: the host's client active texture may
      // have moved on since the guest set this pointer.
      GLint active = GL_TEXTURE0;
      glGetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &active);
      glClientActiveTexture(GL_TEXTURE0 + p.unit);
      glTexCoordPointer(p.size, p.type, p.stride, at);
      glClientActiveTexture(static_cast<GLenum>(active));
      break;
    }
  }
}

size_t scratch_index(Slot slot, uint32_t unit) {
  return kScratchBase + static_cast<size_t>(slot) + (slot == Slot::kTexCoord ? unit : 0);
}

// The buffer an array reads from (GL_CLIENT_ACTIVE_TEXTURE picks the unit).
GLenum binding_query(Slot slot) {
  switch (slot) {
    case Slot::kVertex: return GL_VERTEX_ARRAY_BUFFER_BINDING;
    case Slot::kNormal: return GL_NORMAL_ARRAY_BUFFER_BINDING;
    case Slot::kColor: return GL_COLOR_ARRAY_BUFFER_BINDING;
    case Slot::kSecondaryColor: return GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING;
    case Slot::kFogCoord: return GL_FOG_COORD_ARRAY_BUFFER_BINDING;
    case Slot::kIndex: return GL_INDEX_ARRAY_BUFFER_BINDING;
    case Slot::kEdgeFlag: return GL_EDGE_FLAG_ARRAY_BUFFER_BINDING;
    case Slot::kPointSize: return GL_POINT_SIZE_ARRAY_BUFFER_BINDING_OES;
    case Slot::kTexCoord: return GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING;
  }
  return 0;
}

GLuint bound_buffer(Slot slot) {
  GLint bound = 0;
  glGetIntegerv(binding_query(slot), &bound);
  return static_cast<GLuint>(bound);
}

std::span<const Slot> slots_of(GlContextState::Impl& st) {
  if (!st.has_fixed_function_arrays()) return {};
  if (st.gles1()) return kGles1Slots;
  return kDesktopSlots;
}

bool has_array(GlContextState::Impl& st, Slot slot) {
  const auto slots = slots_of(st);
  if (slots.empty()) return false;
  return slot == Slot::kTexCoord || std::find(slots.begin(), slots.end(), slot) != slots.end();
}

wire::Status legacy_pointer(DispatchEnv& env, wire::Reader& r, Slot slot) {
  if (!has_array(env.state.impl(), slot)) {
    return wire::make_error(wire::Errc::kBadValue, "a fixed-function array the context does not have");
  }
  Pointer p{};
  WIRE_TRY(wire::decode_glVertexPointer(r, p));
  if (p.unit >= kMaxTexUnits) return wire::make_error(wire::Errc::kBadValue, "texture unit");
  return set_array_pointer(env.state.impl(), scratch_index(slot, p.unit), p.start, p.data,
                           [&](const void* pointer) { set_pointer(slot, p, pointer); });
}

}  // namespace

std::vector<LegacyArrayBuffer> legacy_array_buffers(GlContextState::Impl& st) {
  std::vector<LegacyArrayBuffer> out;
  const auto slots = slots_of(st);
  if (slots.empty()) return out;
  for (Slot slot : slots) out.push_back({{static_cast<int>(slot), 0}, bound_buffer(slot)});
  GLint units = 0, active = GL_TEXTURE0;
  glGetIntegerv(st.gles1() ? GL_MAX_TEXTURE_UNITS : GL_MAX_TEXTURE_COORDS, &units);
  glGetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &active);
  for (uint32_t unit = 0; unit < std::min<uint32_t>(kMaxTexUnits, std::max(units, 0)); ++unit) {
    glClientActiveTexture(GL_TEXTURE0 + unit);
    out.push_back({{static_cast<int>(Slot::kTexCoord), unit}, bound_buffer(Slot::kTexCoord)});
  }
  glClientActiveTexture(static_cast<GLenum>(active));
  return out;
}

std::vector<LegacyArray> legacy_arrays_using(GlContextState::Impl& st,
                                             std::span<const GLuint> buffers) {
  std::vector<LegacyArray> out;
  for (const LegacyArrayBuffer& a : legacy_array_buffers(st)) {
    if (a.buffer != 0 && std::find(buffers.begin(), buffers.end(), a.buffer) != buffers.end()) {
      out.push_back(a.array);
    }
  }
  return out;
}

void park_legacy_array(GlContextState::Impl& st, const LegacyArray& array) {
  const auto slot = static_cast<Slot>(array.slot);
  Pointer p;
  p.unit = array.unit;
  p.size = slot == Slot::kSecondaryColor ? 3 : slot == Slot::kPointSize ? 1 : 4;
  p.type = slot == Slot::kEdgeFlag ? GL_UNSIGNED_BYTE : GL_FLOAT;
  park_array(st, scratch_index(slot, array.unit), [&](const void* at) { set_pointer(slot, p, at); });
}

wire::Status handle_glGenLists(DispatchEnv&, wire::Reader&) { return guest_only("glGenLists"); }

wire::Status handle_glInterleavedArrays(DispatchEnv&, wire::Reader&) {
  return guest_only("glInterleavedArrays");
}

// GL walks every name of the range, so a guest's range is bounded like the
// count of glCallLists (a negative one is GL's GL_INVALID_VALUE).
wire::Status handle_glDeleteLists(DispatchEnv& env, wire::Args_glDeleteLists& a) {
  if (a.range > kMaxCallLists) return wire::make_error(wire::Errc::kLimit, "glDeleteLists range");
  glDeleteLists(a.list, a.range);
  env.state.impl().share->lists.erase(a.list, a.range);
  return {};
}

wire::Status handle_glIsList(DispatchEnv& env, wire::Args_glIsList& a) {
  env.reply.put(glIsList(a.list));
  return {};
}

wire::Status handle_glCallLists(DispatchEnv&, wire::Reader& r) {
  wire::Args_glCallLists a{};
  WIRE_TRY(wire::decode_glCallLists(r, a));
  const GLsizei n = a.n;
  const GLenum type = a.type;
  const wire::Data& names = a.lists;
  if (n < 0 || n > kMaxCallLists) return wire::make_error(wire::Errc::kLimit, "glCallLists count");
  const size_t elem = list_name_bytes(type);
  if (elem == 0) {
    glCallLists(n, type, nullptr);  // GL_INVALID_ENUM before reading any name
    return {};
  }
  if (names.kind == wire::DataKind::kBufferOffset || names.kind == wire::DataKind::kNull ||
      names.bytes.size() < static_cast<size_t>(n) * elem)
    return wire::make_error(wire::Errc::kBadLength, "glCallLists names shorter than n");
  glCallLists(n, type, names.bytes.data());
  return {};
}

wire::Status handle_glVertexPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kVertex);
}
wire::Status handle_glNormalPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kNormal);
}
wire::Status handle_glColorPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kColor);
}
wire::Status handle_glSecondaryColorPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kSecondaryColor);
}
wire::Status handle_glFogCoordPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kFogCoord);
}
wire::Status handle_glIndexPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kIndex);
}
wire::Status handle_glEdgeFlagPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kEdgeFlag);
}
wire::Status handle_glPointSizePointerOES(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kPointSize);
}
wire::Status handle_glTexCoordPointer(DispatchEnv& env, wire::Reader& r) {
  return legacy_pointer(env, r, Slot::kTexCoord);
}

}  // namespace host
