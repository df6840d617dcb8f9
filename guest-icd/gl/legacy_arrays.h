// Guest state of the fixed-function client arrays (glVertexPointer,
// glColorPointer ..., and OpenGL ES 1.x's glPointSizePointerOES): which are enabled and where their data lives, so a
// draw can send the vertices it reads. Wire layouts:
// host-renderer/gl/legacy_handlers.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "wire/gl_types.h"

namespace icd {

class GlState;
class Stream;

enum class LegacySlot : uint8_t {
  kVertex,
  kNormal,
  kColor,
  kSecondaryColor,
  kFogCoord,
  kIndex,
  kEdgeFlag,
  kPointSize,  // OpenGL ES 1.x (GL_OES_point_size_array)
  kTexCoord0,  // kTexCoord0 + unit
};

constexpr size_t kLegacyTexUnits = 8;
constexpr size_t kLegacySlots = static_cast<size_t>(LegacySlot::kTexCoord0) + kLegacyTexUnits;

struct LegacyArray {
  bool enabled = false;
  bool client = false;  // pointer is client memory, sent with each draw
  GLint size = 4;
  GLenum type = 0x1406;  // GL_FLOAT
  GLsizei stride = 0;
  const void* pointer = nullptr;

  size_t element_bytes() const;
  size_t stride_bytes() const { return stride > 0 ? static_cast<size_t>(stride) : element_bytes(); }
};

struct LegacyArrays {
  std::array<LegacyArray, kLegacySlots> slots;
  GLuint client_active_texture = 0;  // unit index

  bool any_client() const;
};

// A client-memory array's size, type or stride (glGetIntegerv of
// GL_VERTEX_ARRAY_SIZE ...): the host has not seen its pointer call, only
// the packed copy a draw sends. False for any other query.
bool client_array_query(GlState& st, GLenum pname, GLint* value);

// Sends every enabled client-memory legacy array for vertices
// [first, first + count); called by the draws before they are encoded.
void send_legacy_arrays(Stream& s, int64_t first, int64_t count);

}  // namespace icd
