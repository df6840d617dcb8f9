// How many values a glUniform*v or glProgramUniform*v call reads at a
// location: GL ignores the values past the end of the uniform's array, so a
// program may pass a count far larger than its memory (piglit's
// glsl-uniform-out-of-bounds passes INT_MAX). The guest asks before it
// copies such a call's values (wire::ControlOp::kUniformReach).
#include <epoxy/gl.h>

#include <algorithm>
#include <string>
#include <utility>

#include "gl/context_impl.h"
#include "gl/dispatch_support.h"
#include "host/gl_dispatch.h"

namespace host {

namespace {

// The program a glUniform* call sets: the one in use, else the active
// program of the bound pipeline.
GLuint program_in_use(GlContextState::Impl& st) {
  GLint program = 0;
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  const bool pipelines = st.gles ? st.version() >= 31
                                 : st.version() >= 41 || epoxy_has_gl_extension("GL_ARB_separate_shader_objects");
  if (program == 0 && pipelines) {
    GLint pipeline = 0;
    glGetIntegerv(GL_PROGRAM_PIPELINE_BINDING, &pipeline);
    if (pipeline) glGetProgramPipelineiv(static_cast<GLuint>(pipeline), GL_ACTIVE_PROGRAM, &program);
  }
  return static_cast<GLuint>(program);
}

struct Reach {
  bool found = false;
  bool array = false;
  GLint left = 0;  // elements from the location to the array's end
};

// The active uniform whose locations hold `location`; an array's elements
// have consecutive locations from its first.
Reach reach_of(GLuint program, GLint location) {
  GLint count = 0, longest = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &count);
  glGetProgramiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &longest);
  std::string name(static_cast<size_t>(std::max(longest, 1)), '\0');
  for (GLint i = 0; i < count; ++i) {
    GLsizei length = 0;
    GLint size = 0;
    GLenum type = 0;
    glGetActiveUniform(program, static_cast<GLuint>(i), longest, &length, &size, &type, name.data());
    std::string base(name.data(), static_cast<size_t>(std::max(length, 0)));
    const bool array = base.size() > 3 && base.ends_with("[0]");
    if (array) base.resize(base.size() - 3);
    const GLint first = glGetUniformLocation(program, base.c_str());
    if (first < 0 || location < first || location - first >= size) continue;
    return {true, array, first + size - location};
  }
  return {};
}

}  // namespace

int32_t GlContextState::uniform_reach(uint32_t guest_program, int32_t location, int32_t count) {
  Impl& st = *impl_;
  if (count < 0) return 0;  // GL refuses the call whatever it sends
  if (location == -1) return 0;  // GL ignores the call
  GLuint program = 0;
  if (guest_program && !st.translate(ObjectType::kProgram, guest_program, NameUse::kExisting, &program)) program = 0;
  const auto [is_program, reach] = own_queries(st, [&] {
    if (!guest_program) program = program_in_use(st);
    const bool found = program && program != kNoSuchObject && glIsProgram(program);
    return std::pair{found, found ? reach_of(program, location) : Reach{}};
  });
  // What GL answers the call itself: a name that is no program, no program
  // in use, a location of none of its uniforms, more than one value for
  // a uniform that is no array.
  if (!is_program) {
    refuse_call(st, guest_program && !glIsShader(program) ? GL_INVALID_VALUE : GL_INVALID_OPERATION);
    return -1;
  }
  if (!reach.found || (!reach.array && count > 1)) {
    refuse_call(st, GL_INVALID_OPERATION);
    return -1;
  }
  return std::min(count, reach.left);
}

}  // namespace host
