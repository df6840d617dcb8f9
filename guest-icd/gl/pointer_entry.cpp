// Pointers the program handed GL, answered from what the guest keeps:
// array pointers, the selection and feedback buffers, the debug callback.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "gl/direct_state.h"
#include "gl/entry_support.h"
#include "gl/debug_output.h"
#include "gl/gl_handlers.h"
#include "gl/legacy_arrays.h"
#include "gl/persistent_mappings.h"
#include "wire/gl_encode.h"

namespace icd {

namespace {

// The fixed-function array whose pointer `pname` asks for, or kLegacySlots.
size_t pointer_slot(GlState& st, GLenum pname) {
  switch (pname) {
    case 0x808E: return static_cast<size_t>(LegacySlot::kVertex);          // GL_VERTEX_ARRAY_POINTER
    case 0x808F: return static_cast<size_t>(LegacySlot::kNormal);          // GL_NORMAL_ARRAY_POINTER
    case 0x8090: return static_cast<size_t>(LegacySlot::kColor);           // GL_COLOR_ARRAY_POINTER
    case 0x8091: return static_cast<size_t>(LegacySlot::kIndex);           // GL_INDEX_ARRAY_POINTER
    case 0x8093: return static_cast<size_t>(LegacySlot::kEdgeFlag);        // GL_EDGE_FLAG_ARRAY_POINTER
    case 0x8456: return static_cast<size_t>(LegacySlot::kFogCoord);        // GL_FOG_COORD_ARRAY_POINTER
    case 0x845D: return static_cast<size_t>(LegacySlot::kSecondaryColor);  // GL_SECONDARY_COLOR_ARRAY_POINTER
    case 0x898C: return static_cast<size_t>(LegacySlot::kPointSize);       // GL_POINT_SIZE_ARRAY_POINTER_OES
    case 0x8092:  // GL_TEXTURE_COORD_ARRAY_POINTER, of the client active unit
      return static_cast<size_t>(LegacySlot::kTexCoord0) + st.legacy_arrays().client_active_texture;
    default: return kLegacySlots;
  }
}

}  // namespace

// Every pointer glGetPointerv answers is the program's own, which the guest
// keeps: array pointers (buffer offsets when a buffer held the array), the
// selection and feedback buffers, the debug callback. A vertex array
// object's arrays are the host's, asked where the host can tell.
void GLAPIENTRY handle_glGetPointerv(GLenum pname, void** params) {
  Stream* s = current_stream();
  if (!s || !params || s->gl_state().refused_inside_begin()) return;
  GlState& st = s->gl_state();
  constexpr GLenum kCallbackFunction = 0x8244, kCallbackUserParam = 0x8245;
  constexpr GLenum kFeedbackBufferPointer = 0x0DF0, kSelectionBufferPointer = 0x0DF3;
  if (const size_t slot = pointer_slot(st, pname); slot < kLegacySlots) {
    if (bound_vertex_array_pointer(*s, pname, st.legacy_arrays().client_active_texture, params)) return;
    *params = const_cast<void*>(st.legacy_arrays().slots[slot].pointer);
    return;
  }
  switch (pname) {
    case kCallbackFunction: *params = st.debug_callback; break;
    case kCallbackUserParam: *params = const_cast<void*>(st.debug_user_param); break;
    case kFeedbackBufferPointer: *params = st.feedback_buffer.data; break;
    case kSelectionBufferPointer: *params = st.select_buffer.data; break;
    default: st.raise_error(0x0500);  // GL_INVALID_ENUM
  }
}

void GLAPIENTRY handle_glDebugMessageCallback(GLDEBUGPROC callback, const void* user_param) {
  Stream* s = current_stream();
  if (s) set_debug_callback(*s, callback, user_param);
}

}  // namespace icd
