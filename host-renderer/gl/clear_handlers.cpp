// Colour clears of a guest's window. The window is a pbuffer on the host,
// a framebuffer of one colour buffer; the host picks which of the window's
// buffers it stands for by the pbuffer it binds (docs/host.md, "Front
// buffers"). There, in a desktop context, Mesa's glClearBuffer of GL_BACK
// clears nothing, while glClear clears the one buffer. So on the default
// framebuffer a clear of draw buffer 0 is a glClear with that colour: both
// honour the scissor, colour mask and rasterizer discard alike.
#include <epoxy/gl.h>

#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "wire/sizes.h"

namespace host {
namespace {

bool clears_window_colour(GLenum buffer, GLint drawbuffer, GLuint framebuffer) {
  return buffer == GL_COLOR && drawbuffer == 0 && framebuffer == 0;
}

GLuint draw_framebuffer() {
  GLint bound = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
  return static_cast<GLuint>(bound);
}

// glClear of the window's colour buffer to `rgba`; the clear colour stays.
void clear_window_colour(const GLfloat* rgba) {
  GLfloat kept[4] = {};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, kept);
  glClearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
  glClear(GL_COLOR_BUFFER_BIT);
  glClearColor(kept[0], kept[1], kept[2], kept[3]);
}

wire::Result<const GLfloat*> clear_values(DispatchEnv& env, const wire::Data& value, GLenum buffer) {
  auto values = input_array(env, value, wire::size::clear_buffer_values(buffer), 4,
                            wire::size::kMaxEnumValues, false, false);
  if (!values) return values.error();
  return static_cast<const GLfloat*>(*values);
}

}  // namespace

wire::Status handle_glClearBufferfv(DispatchEnv& env, wire::Args_glClearBufferfv& a) {
  auto rgba = clear_values(env, a.value, a.buffer);
  if (!rgba) return rgba.error();
  if (clears_window_colour(a.buffer, a.drawbuffer, draw_framebuffer())) {
    clear_window_colour(*rgba);
  } else {
    glClearBufferfv(a.buffer, a.drawbuffer, *rgba);
  }
  return {};
}

wire::Status handle_glClearNamedFramebufferfv(DispatchEnv& env, wire::Args_glClearNamedFramebufferfv& a) {
  auto& st = env.state.impl();
  GLuint framebuffer = 0;
  WIRE_TRY(st.translate(ObjectType::kFramebuffer, a.framebuffer, NameUse::kCreateOnUse, &framebuffer));
  auto rgba = clear_values(env, a.value, a.buffer);
  if (!rgba) return rgba.error();
  if (clears_window_colour(a.buffer, a.drawbuffer, framebuffer) && draw_framebuffer() == 0) {
    clear_window_colour(*rgba);
  } else {
    glClearNamedFramebufferfv(framebuffer, a.buffer, a.drawbuffer, *rgba);
  }
  return {};
}

}  // namespace host
