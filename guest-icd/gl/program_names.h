// Answers to name queries from what a link left in a program
// (wire/program_reflection.h), as GL gives them: each is none where the
// guest cannot be sure of GL's answer, and the host is asked instead.
#pragma once

#include <optional>
#include <string_view>

#include "wire/gl_types.h"
#include "wire/program_reflection.h"

namespace icd {

// glGetUniformLocation / glGetAttribLocation: the location of an active
// name, of an array by its name with or without "[0]", of an array's
// element "a[k]" (when the host found the elements in a row), and -1 for
// elements past the array's end and names that share no leading
// identifier with any active one.
std::optional<GLint> uniform_location(const wire::ProgramReflection& r, std::string_view name);
std::optional<GLint> attrib_location(const wire::ProgramReflection& r, std::string_view name);
// glGetUniformBlockIndex: an active block's index, GL_INVALID_INDEX for a
// name that shares no leading identifier with any.
std::optional<GLuint> uniform_block_index(const wire::ProgramReflection& r, std::string_view name);
// glGetProgramiv's answer for `pname`, when the host sent it.
std::optional<GLint> program_value(const wire::ProgramReflection& r, GLenum pname);

}  // namespace icd
