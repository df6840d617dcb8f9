// Workarounds for bugs of the host driver that correct GL reaches. Each one
// keeps a legal program from corrupting its renderer's memory; it changes
// what is drawn as little as it can, and only on the driver that has the bug.
#pragma once

#include <cstdint>
#include <string_view>

#include "gl/context_impl.h"

namespace host {

// Whether GL_RENDERER `renderer` is a driver built on Mesa's draw module
// (llvmpipe, softpipe), which the workarounds below concern.
bool draw_module_renderer(std::string_view renderer);

// Mesa's draw module (llvmpipe, softpipe) writes past a vertex buffer when it
// outlines polygons (glPolygonMode GL_LINE) with smoothed lines for a GLSL
// program whose fragment shader reads gl_FrontFacing: valgrind shows it in a
// native program on Mesa 22.3, and the renderer later crashes in
// eglDestroyContext. On those drivers such a draw runs with GL_LINE_SMOOTH
// off (aliased outlines) while a GLSL program is current; glBegin keeps it
// off until its glEnd. Display lists run as compiled.
void before_draw(GlContextState::Impl& st, uint32_t opcode);
// Undoes before_draw() once the draw (or the primitive glBegin opened) ended.
void after_draw(GlContextState::Impl& st);

}  // namespace host
