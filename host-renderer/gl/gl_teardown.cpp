// Freeing everything a guest created, whether it asked for it or went away.
#include "gl/gl_handler.h"
#include "host/egl_context.h"

namespace host {

// The frame reader's context goes first, the images before the contexts
// whose objects they were made of, and the contexts before the surfaces
// they may still be bound to.
GlHandler::~GlHandler() {
  current_ = nullptr;
  draw_id_ = read_id_ = 0;
  frames_.reset();
  destroy_images();
  for (auto& [id, ctx] : contexts_) destroy(*ctx);
  contexts_.clear();
  for (const auto& [id, surface] : surfaces_) to_guest_.surface_gone(id);
  surfaces_.clear();
  scratch_.reset();
  eglReleaseThread();
}

// Makes `ctx` current with no guest surface, so its objects can be freed.
bool GlHandler::bind_alone(EGLContext ctx, wire::Api api) {
  EGLSurface s = EGL_NO_SURFACE;
  if (!display_.surfaceless_context()) {
    if (!scratch_) {
      auto sc = Surface::create(display_, 1, 1, wire::SurfaceConfig{8, 8, 8, 8, 24, 8, 0}, 0);
      if (!sc) return false;
      scratch_ = std::move(*sc);
    }
    s = scratch_->handle();
  }
  return host::make_current(display_.handle(), api, ctx, s, s);
}

void GlHandler::destroy(GuestContext& ctx) {
  bound_ = false;
  // Without a current context the GL objects cannot be deleted; destroying
  // the EGL context still frees them with it (EGL 1.5 section 3.7.2).
  if (bind_alone(ctx.egl, ctx.api)) ctx.state->release_objects();
  ctx.state.reset();
  host::make_current(display_.handle(), ctx.api, EGL_NO_CONTEXT, EGL_NO_SURFACE, EGL_NO_SURFACE);
  eglDestroyContext(display_.handle(), ctx.egl);
  ctx.egl = EGL_NO_CONTEXT;
  account_.release(kContextBytes);
}

}  // namespace host
