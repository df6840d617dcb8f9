// Which buffer a binding holds: the guest tracks only the bindings its
// draws need, so the others are asked of the host.
#pragma once

#include "wire/gl_types.h"

namespace icd {

// The buffer bound to `target` in the current context (its guest name).
GLuint buffer_at(GLenum target);

// Whether GL has a buffer binding point `target` (GL refuses any other).
bool buffer_target(GLenum target);

}  // namespace icd
