// What GL_EXT_direct_state_access lets the guest ask of the host
// (direct_state_entry.cpp).
#pragma once

#include "icd/stream.h"
#include "wire/gl_types.h"

namespace icd {

// An array pointer of the bound vertex array object, as the host's GL holds
// it (a buffer offset): `pname` is glGetPointerv's, or
// GL_VERTEX_ATTRIB_ARRAY_POINTER; `index` the texture unit or attribute.
// False, and nothing asked, while the default vertex array is bound (its
// client arrays are the guest's) or without GL_EXT_direct_state_access.
bool bound_vertex_array_pointer(Stream& s, GLenum pname, GLuint index, void** out);

}  // namespace icd
