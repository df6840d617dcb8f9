// Front buffers of double-buffered guest surfaces: which pbuffer a context's
// default framebuffer draws into and reads from, the copy a swap makes, and
// the frame a glFlush sends after front-buffer drawing.
#include <epoxy/gl.h>

#include "gl/context_impl.h"
#include "gl/gl_handler.h"
#include "host/egl_context.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

// Draw buffers that mean the front alone.
bool draws_front(GLint mode) { return mode == GL_FRONT || mode == GL_FRONT_LEFT || mode == GL_FRONT_RIGHT; }

// Draw buffers that mean the front and the back of a double-buffered window
// (OpenGL 4.6 compatibility, 17.4.1, table 17.4).
bool draws_both(GLint mode) { return mode == GL_FRONT_AND_BACK || mode == GL_LEFT; }

// Read buffers that read the front: GL_LEFT and GL_FRONT_AND_BACK name the
// front left buffer when reading (OpenGL 4.6 compatibility, 18.2.1).
bool reads_front(GLint mode) { return draws_front(mode) || mode == GL_LEFT || mode == GL_FRONT_AND_BACK; }

GLint current_int(GLenum pname) {
  GLint v = 0;
  glGetIntegerv(pname, &v);
  return v;
}

}  // namespace

EGLSurface GlHandler::buffer_of(uint32_t surface_id, bool front) const {
  auto it = surfaces_.find(surface_id);
  if (it == surfaces_.end()) return EGL_NO_SURFACE;
  return front ? it->second->front_or_back() : it->second->handle();
}

// A surface's front is made, and charged, the first time a context draws
// into it or reads from it: most programs never do.
wire::Status GlHandler::make_front(uint32_t surface_id) {
  auto it = surfaces_.find(surface_id);
  if (it == surfaces_.end()) return {};
  Surface& s = *it->second;
  if (!s.double_buffered() || s.front() != EGL_NO_SURFACE) return {};
  const size_t bytes = Surface::bytes_for(s.width(), s.height(), s.config());
  if (!account_.try_charge(bytes)) return make_error(Errc::kLimit, "guest memory limit (front buffer)");
  auto made = s.make_front();
  if (!made) {
    account_.release(bytes);
    return made;
  }
  // Until then GL_FRONT named the one buffer: the front starts as its copy.
  WIRE_TRY(start_frame_reader());
  auto copied = frames_->copy_to_front(s);
  bound_ = false;
  return copied;
}

// After glDrawBuffer(s)/glReadBuffer: GL has taken or refused the mode, so
// the context's own state says what its default framebuffer now selects.
wire::Status GlHandler::follow_default_buffers() {
  if (current_->api != wire::Api::kGl) return {};  // OpenGL ES draws into and reads a window's back only
  bool draw_front = current_->draw_front, read_front = current_->read_front;
  bool draw_both = current_->draw_both;
  const bool draw_default = current_int(GL_DRAW_FRAMEBUFFER_BINDING) == 0;
  const bool read_default = current_int(GL_READ_FRAMEBUFFER_BINDING) == 0;
  const GLint draw_mode = draw_default ? current_int(GL_DRAW_BUFFER) : GL_NONE;
  const GLint read_mode = read_default ? current_int(GL_READ_BUFFER) : GL_NONE;
  if (draw_default) {
    draw_front = draws_front(draw_mode);
    draw_both = draws_both(draw_mode);
  }
  if (read_default) read_front = reads_front(read_mode);
  if (draw_front == current_->draw_front && read_front == current_->read_front &&
      draw_both == current_->draw_both) {
    return {};
  }
  if (draw_front || draw_both) WIRE_TRY(make_front(draw_id_));
  if (read_front) WIRE_TRY(make_front(read_id_));
  current_->draw_front = draw_front;
  current_->read_front = read_front;
  current_->draw_both = draw_both;
  bound_ = false;
  if (!ensure_bound()) return make_error(Errc::kIo, "cannot bind the surface's front buffer");
  // A driver may keep these per surface: the new ones take the guest's modes.
  if (draw_default) glDrawBuffer(static_cast<GLenum>(draw_mode));
  if (read_default) glReadBuffer(static_cast<GLenum>(read_mode));
  return {};
}

// A context's default framebuffer first draws into and reads from the back
// buffer when there is one (OpenGL 4.6 compatibility, 17.4.1 and 18.2.1);
// a pbuffer alone would start it on GL_FRONT.
void GlHandler::select_initial_buffers(GuestContext& ctx) {
  if (ctx.bound_before) return;
  ctx.bound_before = true;
  if (ctx.api != wire::Api::kGl) return;
  auto double_buffered = [this](uint32_t id) {
    auto it = surfaces_.find(id);
    return it != surfaces_.end() && it->second->double_buffered();
  };
  if (double_buffered(draw_id_)) glDrawBuffer(GL_BACK);
  if (double_buffered(read_id_)) glReadBuffer(GL_BACK);
}

// Whether the context draws into what a window shows: the front of a
// double-buffered window, or a single-buffered window's only buffer.
bool GlHandler::draws_shown_buffer() const {
  auto it = surfaces_.find(draw_id_);
  if (it == surfaces_.end() || !it->second->window()) return false;
  return !it->second->double_buffered() || current_->draw_front || current_->draw_both;
}

// Drawing into both buffers of a window whose buffers are two pbuffers: a
// command that drew into the back runs again with the front bound, whose
// framebuffer takes the context's draw buffer mode first.
wire::Status GlHandler::draw_again_into_front(const ApiCommand& cmd) {
  auto it = surfaces_.find(draw_id_);
  if (it == surfaces_.end() || it->second->front() == EGL_NO_SURFACE) return {};
  const GLint mode = current_int(GL_DRAW_BUFFER);
  const EGLSurface read = buffer_of(read_id_, current_->read_front);
  bound_ = false;  // the next command draws into the back again
  const EGLSurface front = it->second->front();
  if (!host::make_current(display_.handle(), current_->api, current_->egl, front, read)) {
    return make_error(Errc::kIo, "cannot bind the surface's front buffer", cmd.offset);
  }
  glDrawBuffer(static_cast<GLenum>(mode));
  wire::Reader payload = cmd.reader();
  DispatchEnv env{*current_->state, cmd.reply, &images_, programs_};
  return dispatch_gl_again(env, cmd.opcode, payload);
}

// A glFlush or glFinish after drawing into the front shows it, the way a
// window system shows its front buffer.
wire::Status GlHandler::present_front() {
  if (!front_drawn_) return {};
  front_drawn_ = false;
  auto it = surfaces_.find(draw_id_);
  if (it == surfaces_.end()) return {};
  const EGLSurface shown = it->second->front_or_back();
  WIRE_TRY(start_frame_reader());
  bound_ = false;
  return frames_->start(draw_id_, *it->second, shown, last_frame_[draw_id_], to_guest_.frame);
}

// Modes are read and set with the default framebuffer bound for the
// moment: a program may have framebuffer objects bound meanwhile. Not while
// a display list is compiled, which would take glDrawBuffer in.
GlHandler::DefaultBufferModes GlHandler::default_buffer_modes() {
  if (!current_ || current_->api != wire::Api::kGl || !ensure_bound()) return {};
  auto& st = current_->state->impl();
  if (st.version() < 30 || st.compiling_list != 0) return {};
  const GLint draw_fbo = current_int(GL_DRAW_FRAMEBUFFER_BINDING);
  const GLint read_fbo = current_int(GL_READ_FRAMEBUFFER_BINDING);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  DefaultBufferModes modes{current_int(GL_DRAW_BUFFER), current_int(GL_READ_BUFFER)};
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fbo));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo));
  return modes;
}

void GlHandler::restore_default_buffer_modes(const DefaultBufferModes& modes) {
  if (modes.draw == 0 || !current_ || !ensure_bound()) return;
  const GLint draw_fbo = current_int(GL_DRAW_FRAMEBUFFER_BINDING);
  const GLint read_fbo = current_int(GL_READ_FRAMEBUFFER_BINDING);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDrawBuffer(static_cast<GLenum>(modes.draw));
  glReadBuffer(static_cast<GLenum>(modes.read));
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fbo));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo));
}

// The readback context, made on first use.
wire::Status GlHandler::start_frame_reader() {
  if (frames_) return {};
  auto fr = FrameReader::create(display_, limits_.frame_ring);
  bound_ = false;
  if (!fr) return make_error(Errc::kIo, fr.error().detail);
  frames_ = std::move(*fr);
  return {};
}

}  // namespace host
