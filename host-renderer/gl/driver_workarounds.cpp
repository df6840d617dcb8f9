#include "gl/driver_workarounds.h"

#include "gl/command_facts.h"

namespace host {
namespace {

bool outlines_polygons() {
  GLint modes[2] = {GL_FILL, GL_FILL};  // front, back
  glGetIntegerv(GL_POLYGON_MODE, modes);
  return modes[0] == GL_LINE || modes[1] == GL_LINE;
}

bool glsl_program_current() {
  GLint program = 0;
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  return program != 0;
}

}  // namespace

bool draw_module_renderer(std::string_view renderer) {
  return renderer.find("llvmpipe") != renderer.npos || renderer.find("softpipe") != renderer.npos;
}

void before_draw(GlContextState::Impl& st, uint32_t opcode) {
  if (!st.draw_module_driver() || st.line_smooth_suspended || st.in_begin) return;
  // Inside glNewList a glDisable would be compiled into the guest's list.
  if (st.compiling_list != 0 || draw_kind(opcode) == wire::GlDraw::kNone) return;
  if (!glIsEnabled(GL_LINE_SMOOTH) || !outlines_polygons() || !glsl_program_current()) return;
  glDisable(GL_LINE_SMOOTH);
  st.line_smooth_suspended = true;
}

void after_draw(GlContextState::Impl& st) {
  if (!st.line_smooth_suspended || st.in_begin) return;
  glEnable(GL_LINE_SMOOTH);
  st.line_smooth_suspended = false;
}

}  // namespace host
