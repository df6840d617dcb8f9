// The values a glUniform*v or glProgramUniform*v call sends (generated entry
// points call it before copying them).
#pragma once

#include <cstddef>

#include "icd/stream.h"
#include "wire/gl_types.h"

namespace icd {

// GL reads no more values than the uniform array at `location` holds from
// there on, whatever `*count` says; a count whose values would exceed what
// any uniform holds (a program passing INT_MAX) is bounded to what GL reads,
// asked of the host. False: send no call, GL's error waits on the host.
bool bound_uniform_count(Stream& s, GLuint program, GLint location, GLsizei* count, size_t bytes_each);

}  // namespace icd
