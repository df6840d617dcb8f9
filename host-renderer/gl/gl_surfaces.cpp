// A guest's EGL surfaces: host pbuffers made, resized and destroyed at its
// request, and the swap that reads one back as a frame.
#include <bit>
#include <string>

#include "control_args.h"
#include "gl/gl_handler.h"
#include "host/egl_context.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

constexpr uint32_t kTextureFormats = wire::kSurfaceTextureRgb | wire::kSurfaceTextureRgba;
constexpr uint32_t kTextureFlags = kTextureFormats | wire::kSurfaceMipmapTexture;

// A texture pbuffer has exactly one format (mipmaps only with one) and is
// never a window; the driver is asked for such configs only then.
bool texture_pbuffer_allowed(const EglDisplay& display, uint32_t flags) {
  if (!(flags & kTextureFlags)) return false;
  return std::has_single_bit(flags & kTextureFormats) && !(flags & wire::kSurfaceWindow) &&
         offers_texture_pbuffers(display);
}

}  // namespace

wire::Status GlHandler::create_surface(wire::Reader& r) {
  auto c = read_control<wire::CreateSurface>(r);
  if (!c) return c.error();
  if (c->surface_id == 0 || surfaces_.count(c->surface_id)) {
    return make_error(Errc::kBadName, "surface id " + std::to_string(c->surface_id), r.offset());
  }
  if (surfaces_.size() >= limits_.max_surfaces) return make_error(Errc::kLimit, "too many surfaces", r.offset());
  uint32_t known = wire::kSurfaceDoubleBuffered | wire::kSurfaceWindow;
  if (display_.has_extension("EGL_KHR_gl_colorspace")) known |= wire::kSurfaceSrgb;
  if (texture_pbuffer_allowed(display_, c->flags)) known |= kTextureFlags;
  if (c->flags & ~known) {
    return make_error(Errc::kBadValue, "surface flags", r.offset());
  }
  // Checked with the formula it is charged by, before anything is allocated.
  if (c->width > kMaxSurfaceSide || c->height > kMaxSurfaceSide ||
      !account_.fits(Surface::bytes_for(c->width, c->height, c->config))) {
    return make_error(Errc::kLimit, "surface " + std::to_string(c->width) + "x" + std::to_string(c->height),
                      r.offset());
  }
  auto s = Surface::create(display_, c->width, c->height, c->config, c->flags);
  if (!s) return make_error(s.error().code, s.error().detail, r.offset());
  account_.charge_allocated((*s)->bytes());
  surfaces_.emplace(c->surface_id, std::move(*s));
  return {};
}

// eglBindTexImage and eglReleaseTexImage in the current context: the guest
// checked what EGL asks; a driver that still refuses (not logged: a guest
// could flood the log) leaves the texture as it was.
wire::Status GlHandler::bind_tex_image(wire::Reader& r) {
  auto m = read_control<wire::BindTexImage>(r);
  if (!m) return m.error();
  auto it = surfaces_.find(m->surface_id);
  if (it == surfaces_.end()) return unknown_id("surface", m->surface_id, r.offset());
  if (!it->second->texture()) return make_error(Errc::kBadValue, "surface not made for textures", r.offset());
  if (!current_ || !ensure_bound()) return {};  // no context: EGL ignores the binding
  const EGLSurface pbuffer = it->second->handle();
  if (m->bind)
    eglBindTexImage(display_.handle(), pbuffer, EGL_BACK_BUFFER);
  else
    eglReleaseTexImage(display_.handle(), pbuffer, EGL_BACK_BUFFER);
  return {};
}

wire::Status GlHandler::destroy_surface(wire::Reader& r) {
  auto id = read_control<wire::ObjectId>(r);
  if (!id) return id.error();
  auto it = surfaces_.find(id->id);
  if (it == surfaces_.end()) return unknown_id("surface", id->id, r.offset());
  if (frames_) frames_->forget_surface(id->id);
  to_guest_.surface_gone(id->id);
  if (draw_id_ == id->id) draw_id_ = 0;
  if (read_id_ == id->id) read_id_ = 0;
  bound_ = false;
  // Unbind before the pbuffer goes, so it is freed now rather than deferred.
  host::make_current(display_.handle(), wire::Api::kGles, EGL_NO_CONTEXT, EGL_NO_SURFACE, EGL_NO_SURFACE);
  account_.release(it->second->bytes());
  surfaces_.erase(it);
  last_frame_.erase(id->id);
  return {};
}

wire::Status GlHandler::resize_surface(wire::Reader& r) {
  auto m = read_control<wire::ResizeSurface>(r);
  if (!m) return m.error();
  auto it = surfaces_.find(m->surface_id);
  if (it == surfaces_.end()) return unknown_id("surface", m->surface_id, r.offset());
  Surface& s = *it->second;
  // The old storage goes with the resize: the new size need only fit without it.
  const size_t old_bytes = s.bytes();
  account_.release(old_bytes);
  if (m->width > kMaxSurfaceSide || m->height > kMaxSurfaceSide ||
      !account_.fits(s.bytes_at(m->width, m->height))) {
    account_.charge_allocated(old_bytes);
    return make_error(Errc::kLimit, "surface " + std::to_string(m->width) + "x" + std::to_string(m->height),
                      r.offset());
  }
  collect_frames(FrameReader::Wait::kAll);
  // A driver keeps the draw and read buffers per pbuffer (Mesa starts a new
  // one reading GL_FRONT): the current context's go over to the new ones.
  const bool bound_here = current_ && (draw_id_ == m->surface_id || read_id_ == m->surface_id);
  const DefaultBufferModes modes = bound_here ? default_buffer_modes() : DefaultBufferModes{};
  host::make_current(display_.handle(), wire::Api::kGles, EGL_NO_CONTEXT, EGL_NO_SURFACE, EGL_NO_SURFACE);
  bound_ = false;
  auto st = s.resize(m->width, m->height);
  account_.charge_allocated(st ? s.bytes() : old_bytes);
  if (!st) return make_error(st.error().code, st.error().detail, r.offset());
  restore_default_buffer_modes(modes);
  return {};
}

wire::Status GlHandler::swap_buffers(wire::Reader& r) {
  auto m = read_control<wire::SwapBuffers>(r);
  if (!m) return m.error();
  auto it = surfaces_.find(m->surface_id);
  if (it == surfaces_.end()) return unknown_id("surface", m->surface_id, r.offset());
  if (current_ && current_->lost) return {};
  if (auto st = start_frame_reader(); !st) return make_error(st.error().code, st.error().detail, r.offset());
  ensure_bound();  // the read is ordered after the guest's rendering
  bound_ = false;
  Surface& s = *it->second;
  last_frame_[m->surface_id] = m->frame_id;
  auto st = frames_->start(m->surface_id, s, s.handle(), m->frame_id, to_guest_.frame);
  if (st) st = frames_->copy_to_front(s);  // what was presented is the front now
  if (!st) return make_error(st.error().code, st.error().detail, r.offset());
  return {};
}

}  // namespace host
