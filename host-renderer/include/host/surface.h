// A guest surface on the host: an EGL pbuffer, so that framebuffer 0 of a
// context made current on it is the surface.
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

// Picks the pbuffer config closest to `want`; kBadValue when none fits.
wire::Result<EGLConfig> choose_config(const EglDisplay& display, const wire::SurfaceConfig& want);

class Surface {
 public:
  static wire::Result<std::unique_ptr<Surface>> create(const EglDisplay& display, uint32_t width,
                                                       uint32_t height, const wire::SurfaceConfig& cfg);
  ~Surface();
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;

  // Replaces the pbuffer with one of the new size (contents are lost, as
  // with a resized window). The caller re-binds it if it was current.
  wire::Status resize(uint32_t width, uint32_t height);

  EGLSurface handle() const { return surface_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  // What the pbuffer costs in memory, for the guest's account.
  size_t bytes() const { return bytes_for(width_, height_, cfg_); }
  // What a pbuffer of that size and config would cost: checked against the
  // guest's account before one is made, and charged once it is.
  static size_t bytes_for(uint32_t width, uint32_t height, const wire::SurfaceConfig& cfg);
  const wire::SurfaceConfig& config() const { return cfg_; }

 private:
  Surface(const EglDisplay& display, EGLConfig config, const wire::SurfaceConfig& cfg)
      : display_(display), config_(config), cfg_(cfg) {}
  wire::Status allocate(uint32_t width, uint32_t height);

  const EglDisplay& display_;
  EGLConfig config_;
  wire::SurfaceConfig cfg_;
  EGLSurface surface_ = EGL_NO_SURFACE;
  uint32_t width_ = 0, height_ = 0;
};

}  // namespace host
