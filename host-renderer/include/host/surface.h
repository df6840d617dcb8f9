// A guest surface on the host: an EGL pbuffer, so that framebuffer 0 of a
// context made current on it is the surface. A double-buffered (window)
// surface gets a second pbuffer of the same config the first time its
// front buffer is used: EGL pbuffers have one colour buffer, in which a
// driver's GL_FRONT and GL_BACK are the same, so the front needs its own.
#pragma once

#include <epoxy/egl.h>

#include <cstdint>
#include <memory>

#include "host/egl_display.h"
#include "wire/control.h"
#include "wire/result.h"

namespace host {

// Largest width or height a guest may ask for, whatever EGL would allow.
constexpr uint32_t kMaxSurfaceSide = 16384;

// Picks the pbuffer config closest to `want`, one that binds to textures
// for a texture pbuffer (wire::kSurfaceTexture* in `flags`); kBadValue when
// none fits.
wire::Result<EGLConfig> choose_config(const EglDisplay& display, const wire::SurfaceConfig& want, uint32_t flags = 0);
// Whether the display has pbuffers that bind to RGBA textures.
bool offers_texture_pbuffers(const EglDisplay& display);
// The largest width and height every pbuffer config allows, within
// kMaxSurfaceSide: what the guest offers as EGL_MAX_PBUFFER_WIDTH/HEIGHT.
uint32_t largest_pbuffer_side(const EglDisplay& display);

class Surface {
 public:
  static wire::Result<std::unique_ptr<Surface>> create(const EglDisplay& display, uint32_t width,
                                                       uint32_t height, const wire::SurfaceConfig& cfg,
                                                       uint32_t flags);
  ~Surface();
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;

  // Replaces the pbuffers with ones of the new size (contents are lost, as
  // with a resized window). The caller re-binds it if it was current.
  wire::Status resize(uint32_t width, uint32_t height);

  // The back buffer (the only one of a single-buffered surface).
  EGLSurface handle() const { return surface_; }
  bool double_buffered() const { return flags_ & wire::kSurfaceDoubleBuffered; }
  // A window's front (its only buffer when single-buffered) is shown.
  bool window() const { return flags_ & wire::kSurfaceWindow; }
  // The front buffer once made; EGL_NO_SURFACE before.
  EGLSurface front() const { return front_; }
  // Makes the front buffer of a double-buffered surface (a no-op once made,
  // and for single-buffered surfaces, whose front is their back).
  wire::Status make_front();
  // A pbuffer made to be bound to a texture (eglBindTexImage).
  bool texture() const { return flags_ & (wire::kSurfaceTextureRgb | wire::kSurfaceTextureRgba); }
  // The buffer GL_FRONT names: the front once made, else the back.
  EGLSurface front_or_back() const { return front_ != EGL_NO_SURFACE ? front_ : surface_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  // What the pbuffers cost in memory, for the guest's account.
  size_t bytes() const { return bytes_at(width_, height_); }
  // What they would cost at another size (a resize).
  size_t bytes_at(uint32_t width, uint32_t height) const {
    return bytes_for(width, height, cfg_) * (front_ != EGL_NO_SURFACE ? 2 : 1);
  }
  // What a pbuffer of that size and config would cost: checked against the
  // guest's account before one is made, and charged once it is.
  static size_t bytes_for(uint32_t width, uint32_t height, const wire::SurfaceConfig& cfg);
  const wire::SurfaceConfig& config() const { return cfg_; }

 private:
  Surface(const EglDisplay& display, EGLConfig config, const wire::SurfaceConfig& cfg, uint32_t flags)
      : display_(display), config_(config), cfg_(cfg), flags_(flags) {}
  wire::Status allocate(uint32_t width, uint32_t height);
  wire::Result<EGLSurface> new_pbuffer(uint32_t width, uint32_t height) const;

  const EglDisplay& display_;
  EGLConfig config_;
  wire::SurfaceConfig cfg_;
  uint32_t flags_;  // wire::kSurface*
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLSurface front_ = EGL_NO_SURFACE;
  uint32_t width_ = 0, height_ = 0;
};

}  // namespace host
