// Which buffer a binding holds: the guest tracks only the bindings its
// draws need, so the others are asked of the host.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wire/gl_types.h"

namespace icd {

// The buffer bound to `target` in the current context (its guest name).
GLuint buffer_at(GLenum target);

// Whether GL has a buffer binding point `target` (GL refuses any other).
bool buffer_target(GLenum target);

// `bytes` of the buffer bound to `target` from `offset`, read back from the
// host (one round trip); false when the entry point is missing.
bool read_bound_buffer(GLenum target, uint64_t offset, size_t bytes, void* out);

}  // namespace icd
