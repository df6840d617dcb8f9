// Legacy desktop GL that needs the guest: display list names (allocated
// here as a contiguous range), glCallLists' typed name arrays, and the
// fixed-function client arrays of desktop GL and OpenGL ES 1.x, which are recorded when set and sent with
// each draw like the generic ones in draw_entry.cpp.
// Wire layouts: wire-protocol/annotations.toml [layouts].
#include "gl/legacy_arrays.h"

#include <vector>

#include "gl/entry_support.h"
#include "gl/debug_output.h"
#include "gl/gl_handlers.h"
#include "gl/pointer_errors.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

constexpr GLenum kArrayBuffer = 0x8892;
constexpr GLenum kTexture0 = 0x84C0;
constexpr GLint kBgra = 0x80E1;

// The pointer commands share one layout (annotations.toml [layouts]).
using PointerEncoder = void (*)(wire::Writer&, GLuint, GLint, GLenum, GLsizei, GLuint64, const void*,
                                size_t, bool);

PointerEncoder encoder_of(LegacySlot slot) {
  switch (slot) {
    case LegacySlot::kVertex: return wire::encode_glVertexPointer;
    case LegacySlot::kNormal: return wire::encode_glNormalPointer;
    case LegacySlot::kColor: return wire::encode_glColorPointer;
    case LegacySlot::kSecondaryColor: return wire::encode_glSecondaryColorPointer;
    case LegacySlot::kFogCoord: return wire::encode_glFogCoordPointer;
    case LegacySlot::kIndex: return wire::encode_glIndexPointer;
    case LegacySlot::kEdgeFlag: return wire::encode_glEdgeFlagPointer;
    case LegacySlot::kPointSize: return wire::encode_glPointSizePointerOES;
    default: return wire::encode_glTexCoordPointer;
  }
}

void encode_pointer(Stream& s, size_t slot, const LegacyArray& a, uint64_t start, const void* data,
                    size_t bytes, bool in_buffer) {
  const size_t unit = slot >= static_cast<size_t>(LegacySlot::kTexCoord0)
                          ? slot - static_cast<size_t>(LegacySlot::kTexCoord0) : 0;
  encoder_of(static_cast<LegacySlot>(slot))(s.writer(), static_cast<GLuint>(unit), a.size, a.type, a.stride,
                                             start, data, bytes, in_buffer);
  s.commit();
}

bool colour_array(size_t slot) {
  return slot == static_cast<size_t>(LegacySlot::kColor) ||
         slot == static_cast<size_t>(LegacySlot::kSecondaryColor);
}

void set_pointer(size_t slot, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  Stream* s = current_stream();
  if (!s || slot >= kLegacySlots) return;
  GlState& st = s->gl_state();
  // A client array reaches GL only with a draw: GL's errors are raised here.
  if (st.refused_inside_begin()) return;
  if (const GLenum error = st.gles() ? 0 : fixed_function_pointer_error(colour_array(slot), size, type, stride)) {
    st.raise_error(error);
    return;
  }
  LegacyArray& a = st.legacy_arrays().slots[slot];
  a = LegacyArray{a.enabled, false, size, type, stride, pointer};
  if (st.bound_buffer(kArrayBuffer) != 0 || !st.default_vertex_array()) {
    encode_pointer(*s, slot, a, 0, pointer, 0, true);
    return;
  }
  a.client = true;  // sent with each draw
}

size_t tex_slot(GlState& st) {
  return static_cast<size_t>(LegacySlot::kTexCoord0) + st.legacy_arrays().client_active_texture;
}

// The slot a glEnableClientState array names, or kLegacySlots.
size_t slot_of(GlState& st, GLenum array) {
  switch (array) {
    case 0x8074: return static_cast<size_t>(LegacySlot::kVertex);
    case 0x8075: return static_cast<size_t>(LegacySlot::kNormal);
    case 0x8076: return static_cast<size_t>(LegacySlot::kColor);
    case 0x8077: return static_cast<size_t>(LegacySlot::kIndex);
    case 0x8078: return tex_slot(st);
    case 0x8079: return static_cast<size_t>(LegacySlot::kEdgeFlag);
    case 0x8457: return static_cast<size_t>(LegacySlot::kFogCoord);
    case 0x845E: return static_cast<size_t>(LegacySlot::kSecondaryColor);
    case 0x8B9C: return static_cast<size_t>(LegacySlot::kPointSize);
    default: return kLegacySlots;
  }
}

// Records whether a fixed-function array is on: draws send its client data.
void track_client_array(GlState& st, GLenum array, bool enable) {
  constexpr GLenum kRestart = 0x8F9D, kRestartNv = 0x8558, kRestartFixedIndex = 0x8D69;
  if (array == kRestart || array == kRestartNv) st.primitive_restart().enabled = enable;
  if (array == kRestartFixedIndex) st.primitive_restart().fixed_index = enable;
  const size_t slot = slot_of(st, array);
  if (slot < kLegacySlots && st.fixed_function() && st.default_vertex_array()) {
    st.legacy_arrays().slots[slot].enabled = enable;
  }
}

using CapEncoder = void (*)(wire::Writer&, GLenum);

// Sends glEnable/glDisable or the client-state pair; compatibility contexts
// take array names in glEnable too (drivers accept them as
// glEnableClientState; programs and piglit rely on it).
void switch_state(GLenum name, bool enable, CapEncoder on, CapEncoder off) {
  Stream* s = current_stream();
  if (!s) return;
  track_client_array(s->gl_state(), name, enable);
  constexpr GLenum kDebugOutputSynchronous = 0x8242;
  if (name == kDebugOutputSynchronous && on == wire::encode_glEnable) set_debug_synchronous(*s, enable);
  (enable ? on : off)(s->writer(), name);
  s->commit();
}

}  // namespace

size_t LegacyArray::element_bytes() const {
  const size_t components = size == kBgra ? 4 : static_cast<size_t>(size > 0 ? size : 4);
  return components * vertex_type_bytes(type);
}

bool LegacyArrays::any_client() const {
  for (const auto& a : slots)
    if (a.enabled && a.client) return true;
  return false;
}

bool client_array_query(GlState& st, GLenum pname, GLint* value) {
  enum Field { kSize, kType, kStride };
  struct Query {
    GLenum pname;
    LegacySlot slot;  // kTexCoord0: the client active texture's
    Field field;
  };
  static constexpr Query kQueries[] = {
      {0x807A, LegacySlot::kVertex, kSize},         {0x807B, LegacySlot::kVertex, kType},
      {0x807C, LegacySlot::kVertex, kStride},       {0x807E, LegacySlot::kNormal, kType},
      {0x807F, LegacySlot::kNormal, kStride},       {0x8081, LegacySlot::kColor, kSize},
      {0x8082, LegacySlot::kColor, kType},          {0x8083, LegacySlot::kColor, kStride},
      {0x8085, LegacySlot::kIndex, kType},          {0x8086, LegacySlot::kIndex, kStride},
      {0x8088, LegacySlot::kTexCoord0, kSize},      {0x8089, LegacySlot::kTexCoord0, kType},
      {0x808A, LegacySlot::kTexCoord0, kStride},    {0x808C, LegacySlot::kEdgeFlag, kStride},
      {0x8454, LegacySlot::kFogCoord, kType},       {0x8455, LegacySlot::kFogCoord, kStride},
      {0x845A, LegacySlot::kSecondaryColor, kSize}, {0x845B, LegacySlot::kSecondaryColor, kType},
      {0x845C, LegacySlot::kSecondaryColor, kStride}, {0x898A, LegacySlot::kPointSize, kType},
      {0x898B, LegacySlot::kPointSize, kStride},
  };
  if (!st.default_vertex_array()) return false;
  for (const Query& q : kQueries) {
    if (q.pname != pname) continue;
    const size_t slot = q.slot == LegacySlot::kTexCoord0 ? tex_slot(st) : static_cast<size_t>(q.slot);
    const LegacyArray& a = st.legacy_arrays().slots[slot];
    if (!a.client) return false;  // in a buffer: the host has it
    *value = q.field == kSize ? a.size : q.field == kType ? static_cast<GLint>(a.type) : a.stride;
    return true;
  }
  return false;
}

void send_legacy_arrays(Stream& s, int64_t first, int64_t count) {
  GlState& st = s.gl_state();
  if (count <= 0 || first < 0 || !st.default_vertex_array() || !st.legacy_arrays().any_client()) return;
  const auto& slots = st.legacy_arrays().slots;
  for (size_t i = 0; i < slots.size(); ++i) {
    const LegacyArray& a = slots[i];
    if (!a.enabled || !a.client || a.pointer == nullptr) continue;
    const uint64_t start = static_cast<uint64_t>(first) * a.stride_bytes();
    const size_t bytes = static_cast<size_t>(count - 1) * a.stride_bytes() + a.element_bytes();
    encode_pointer(s, i, a, start, static_cast<const std::byte*>(a.pointer) + start, bytes, false);
  }
}

namespace {

// Sends glBegin, glEnd, glNewList or glEndList as it is, then follows what
// it does to the primitive GL has open (GlState::primitive).
template <typename... Params, typename... Args>
void send_and_follow(void (*encode)(wire::Writer&, Params...), void (*follow)(GlState::Primitive&, Args...),
                     Args... args) {
  Stream* s = current_stream();
  if (!s) return;
  encode(s->writer(), args...);
  s->commit();
  follow(s->gl_state().primitive(), args...);
}

constexpr GLenum kLastPrimitive = 0x000E;  // GL_PATCHES
constexpr GLenum kCompile = 0x1300;
constexpr GLenum kCompileAndExecute = 0x1301;

}  // namespace

void GLAPIENTRY handle_glBegin(GLenum mode) {
  send_and_follow(wire::encode_glBegin, +[](GlState::Primitive& p, GLenum m) {
    if (m > kLastPrimitive) return;  // GL_INVALID_ENUM, compiled as nothing
    if (p.in_list) p.list_opens = true;
    if (!p.compiling_only) p.open = true;
  }, mode);
}

void GLAPIENTRY handle_glEnd() {
  send_and_follow(wire::encode_glEnd, +[](GlState::Primitive& p) {
    if (p.in_list) p.list_opens = false;
    if (!p.compiling_only) p.open = false;
  });
}

void GLAPIENTRY handle_glNewList(GLuint list, GLenum mode) {
  send_and_follow(wire::encode_glNewList, +[](GlState::Primitive& p, GLuint l, GLenum m) {
    // GL refuses a list inside glBegin, list 0, another mode, or a list
    // while one is compiling (which goes on as it was).
    if (p.open || l == 0 || p.in_list || (m != kCompile && m != kCompileAndExecute)) return;
    p.in_list = true;
    p.compiling_only = m == kCompile;
    p.list = l;
    p.list_opens.reset();
  }, list, mode);
}

void GLAPIENTRY handle_glEndList() {
  send_and_follow(wire::encode_glEndList, +[](GlState::Primitive& p) {
    if (p.open || !p.in_list) return;
    if (p.list_opens) {
      p.lists_opening[p.list] = *p.list_opens;
    } else {
      p.lists_opening.erase(p.list);
    }
    p.in_list = false;
    p.compiling_only = false;
  });
}

// A called list opens or closes the primitive as its last glBegin or glEnd
// does, so that a list holding only glEnd ends a glBegin the program made.
void GLAPIENTRY handle_glCallList(GLuint list) {
  send_and_follow(wire::encode_glCallList, +[](GlState::Primitive& p, GLuint l) {
    const auto found = p.lists_opening.find(l);
    if (found == p.lists_opening.end()) return;
    if (p.in_list) p.list_opens = found->second;
    if (!p.compiling_only) p.open = found->second;
  }, list);
}

void GLAPIENTRY handle_glDeleteLists(GLuint list, GLsizei range) {
  send_and_follow(wire::encode_glDeleteLists, +[](GlState::Primitive& p, GLuint first, GLsizei n) {
    if (p.open) return;  // GL_INVALID_OPERATION
    for (auto it = p.lists_opening.begin(); it != p.lists_opening.end();) {
      const bool deleted = n > 0 && it->first >= first && it->first - first < static_cast<GLuint>(n);
      it = deleted ? p.lists_opening.erase(it) : std::next(it);
    }
  }, list, range);
}

GLuint GLAPIENTRY handle_glGenLists(GLsizei range) {
  Stream* s = current_stream();
  if (!s || s->gl_state().refused_inside_begin()) return 0;
  if (range <= 0) return 0;  // GL_INVALID_VALUE for a negative range is the host's to miss
  std::vector<GLuint> names(static_cast<size_t>(range));
  s->gl_state().names().allocate(wire::ObjectType::kDisplayList, names.size(), names.data());
  return names.front();
}

void GLAPIENTRY handle_glCallLists(GLsizei n, GLenum type, const void* lists) {
  Stream* s = current_stream();
  const size_t elem = wire::size::list_name_bytes(type);
  if (!s || s->gl_state().refused_negative(n)) return;
  // An unknown type sends no names: the host's GL reports GL_INVALID_ENUM.
  wire::encode_glCallLists(s->writer(), n, type, lists, elem ? static_cast<size_t>(n) * elem : 0);
  s->commit();
}

void GLAPIENTRY handle_glEnableClientState(GLenum array) {
  switch_state(array, true, wire::encode_glEnableClientState, wire::encode_glDisableClientState);
}
void GLAPIENTRY handle_glDisableClientState(GLenum array) {
  switch_state(array, false, wire::encode_glEnableClientState, wire::encode_glDisableClientState);
}
void GLAPIENTRY handle_glEnable(GLenum cap) {
  switch_state(cap, true, wire::encode_glEnable, wire::encode_glDisable);
}
void GLAPIENTRY handle_glDisable(GLenum cap) {
  switch_state(cap, false, wire::encode_glEnable, wire::encode_glDisable);
}

void GLAPIENTRY handle_glClientActiveTexture(GLenum texture) {
  Stream* s = current_stream();
  if (!s) return;
  if (texture >= kTexture0 && texture < kTexture0 + kLegacyTexUnits)
    s->gl_state().legacy_arrays().client_active_texture = texture - kTexture0;
  wire::encode_glClientActiveTexture(s->writer(), texture);
  s->commit();
}

void GLAPIENTRY handle_glVertexPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kVertex), size, type, stride, pointer);
}

void GLAPIENTRY handle_glNormalPointer(GLenum type, GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kNormal), 3, type, stride, pointer);
}

void GLAPIENTRY handle_glColorPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kColor), size, type, stride, pointer);
}

void GLAPIENTRY handle_glSecondaryColorPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kSecondaryColor), size, type, stride, pointer);
}

void GLAPIENTRY handle_glFogCoordPointer(GLenum type, GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kFogCoord), 1, type, stride, pointer);
}

void GLAPIENTRY handle_glIndexPointer(GLenum type, GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kIndex), 1, type, stride, pointer);
}

void GLAPIENTRY handle_glEdgeFlagPointer(GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kEdgeFlag), 1, 0x1401, stride, pointer);  // GLboolean bytes
}

void GLAPIENTRY handle_glPointSizePointerOES(GLenum type, GLsizei stride, const void* pointer) {
  set_pointer(static_cast<size_t>(LegacySlot::kPointSize), 1, type, stride, pointer);
}

void GLAPIENTRY handle_glTexCoordPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  Stream* s = current_stream();
  if (!s) return;
  set_pointer(tex_slot(s->gl_state()), size, type, stride, pointer);
}

// glInterleavedArrays sets and enables the arrays of one packed vertex
// layout (OpenGL 2.1 section 2.8, table 2.5).
void GLAPIENTRY handle_glInterleavedArrays(GLenum format, GLsizei stride, const void* pointer) {
  struct Layout {
    GLenum format;
    int tex, color, normal, vertex;  // components; 0 = array disabled
    GLenum color_type;
    int pc, pn, pv, size;            // offsets and the packed vertex size in bytes
  };
  constexpr GLenum kF = 0x1406, kUb = 0x1401;
  static constexpr Layout kLayouts[] = {
      {0x2A20, 0, 0, 0, 2, 0, 0, 0, 0, 8},      {0x2A21, 0, 0, 0, 3, 0, 0, 0, 0, 12},
      {0x2A22, 0, 4, 0, 2, kUb, 0, 0, 4, 12},   {0x2A23, 0, 4, 0, 3, kUb, 0, 0, 4, 16},
      {0x2A24, 0, 3, 0, 3, kF, 0, 0, 12, 24},   {0x2A25, 0, 0, 3, 3, 0, 0, 0, 12, 24},
      {0x2A26, 0, 4, 3, 3, kF, 0, 16, 28, 40},  {0x2A27, 2, 0, 0, 3, 0, 0, 0, 8, 20},
      {0x2A28, 4, 0, 0, 4, 0, 0, 0, 16, 32},    {0x2A29, 2, 4, 0, 3, kUb, 8, 0, 12, 24},
      {0x2A2A, 2, 3, 0, 3, kF, 8, 0, 20, 32},   {0x2A2B, 2, 0, 3, 3, 0, 0, 8, 20, 32},
      {0x2A2C, 2, 4, 3, 3, kF, 8, 24, 36, 48},  {0x2A2D, 4, 4, 3, 4, kF, 16, 32, 44, 60},
  };
  const Layout* l = nullptr;
  for (const auto& candidate : kLayouts)
    if (candidate.format == format) l = &candidate;
  if (!l || stride < 0) return;  // GL_INVALID_ENUM / GL_INVALID_VALUE: nothing changes
  const GLsizei step = stride ? stride : l->size;
  const auto* base = static_cast<const std::byte*>(pointer);
  handle_glDisableClientState(0x8079);  // EDGE_FLAG_ARRAY
  handle_glDisableClientState(0x8077);  // INDEX_ARRAY
  handle_glDisableClientState(0x845E);  // SECONDARY_COLOR_ARRAY
  handle_glDisableClientState(0x8457);  // FOG_COORD_ARRAY
  if (l->tex) {
    handle_glEnableClientState(0x8078);
    handle_glTexCoordPointer(l->tex, kF, step, base);
  } else {
    handle_glDisableClientState(0x8078);
  }
  if (l->color) {
    handle_glEnableClientState(0x8076);
    handle_glColorPointer(l->color, l->color_type, step, base + l->pc);
  } else {
    handle_glDisableClientState(0x8076);
  }
  if (l->normal) {
    handle_glEnableClientState(0x8075);
    handle_glNormalPointer(kF, step, base + l->pn);
  } else {
    handle_glDisableClientState(0x8075);
  }
  handle_glEnableClientState(0x8074);
  handle_glVertexPointer(l->vertex, kF, step, base + l->pv);
}

}  // namespace icd
