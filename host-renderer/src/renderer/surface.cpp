#include "host/surface.h"

#include <algorithm>
#include <string>
#include <vector>

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

EGLint attrib(EGLDisplay d, EGLConfig c, EGLint name) {
  EGLint v = 0;
  eglGetConfigAttrib(d, c, name, &v);
  return v;
}

wire::Status validate(const wire::SurfaceConfig& c) {
  if (c.red > 16 || c.green > 16 || c.blue > 16 || c.alpha > 16 || c.depth > 32 || c.stencil > 8 ||
      c.samples > 32) {
    return make_error(Errc::kBadValue, "surface config out of range");
  }
  return {};
}

// The bind-to-texture attribute a texture pbuffer's config needs, or EGL_NONE.
EGLint texture_binding(uint32_t flags) {
  if (flags & wire::kSurfaceTextureRgba) return EGL_BIND_TO_TEXTURE_RGBA;
  return flags & wire::kSurfaceTextureRgb ? EGL_BIND_TO_TEXTURE_RGB : EGL_NONE;
}

}  // namespace

bool offers_texture_pbuffers(const EglDisplay& display) {
  const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_BIND_TO_TEXTURE_RGBA, EGL_TRUE, EGL_NONE};
  EGLint n = 0;
  return eglChooseConfig(display.handle(), attribs, nullptr, 0, &n) && n > 0;
}

uint32_t largest_pbuffer_side(const EglDisplay& display) {
  const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLDisplay d = display.handle();
  EGLint n = 0;
  if (!eglChooseConfig(d, attribs, nullptr, 0, &n) || n <= 0) return kMaxSurfaceSide;
  std::vector<EGLConfig> configs(static_cast<size_t>(n));
  eglChooseConfig(d, attribs, configs.data(), n, &n);
  uint32_t side = kMaxSurfaceSide;
  for (EGLConfig c : configs) {
    for (EGLint limit : {attrib(d, c, EGL_MAX_PBUFFER_WIDTH), attrib(d, c, EGL_MAX_PBUFFER_HEIGHT)})
      if (limit > 0) side = std::min(side, static_cast<uint32_t>(limit));
  }
  return side;
}

wire::Result<EGLConfig> choose_config(const EglDisplay& display, const wire::SurfaceConfig& want, uint32_t flags) {
  WIRE_TRY(validate(want));
  const EGLint binding = texture_binding(flags);
  const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                            EGL_RED_SIZE, static_cast<EGLint>(want.red),
                            EGL_GREEN_SIZE, static_cast<EGLint>(want.green),
                            EGL_BLUE_SIZE, static_cast<EGLint>(want.blue),
                            EGL_ALPHA_SIZE, static_cast<EGLint>(want.alpha),
                            EGL_DEPTH_SIZE, static_cast<EGLint>(want.depth),
                            EGL_STENCIL_SIZE, static_cast<EGLint>(want.stencil),
                            EGL_SAMPLES, static_cast<EGLint>(want.samples),
                            binding, EGL_TRUE,
                            EGL_NONE};
  EGLint n = 0;
  EGLDisplay d = display.handle();
  if (!eglChooseConfig(d, attribs, nullptr, 0, &n) || n <= 0) {
    return make_error(Errc::kBadValue, "no pbuffer config for the requested sizes");
  }
  std::vector<EGLConfig> configs(static_cast<size_t>(n));
  eglChooseConfig(d, attribs, configs.data(), n, &n);
  // EGL sorts deeper colour first (EGL 1.5 table 3.4); prefer the exact
  // colour sizes asked for, then the smallest depth/stencil/samples that fit.
  auto score = [&](EGLConfig c) {
    int s = 0;
    if (attrib(d, c, EGL_RED_SIZE) != static_cast<EGLint>(want.red) ||
        attrib(d, c, EGL_GREEN_SIZE) != static_cast<EGLint>(want.green) ||
        attrib(d, c, EGL_BLUE_SIZE) != static_cast<EGLint>(want.blue)) {
      s += 1000;
    }
    if (attrib(d, c, EGL_ALPHA_SIZE) != static_cast<EGLint>(want.alpha)) s += 100;
    s += attrib(d, c, EGL_DEPTH_SIZE) - static_cast<EGLint>(want.depth);
    s += attrib(d, c, EGL_STENCIL_SIZE) - static_cast<EGLint>(want.stencil);
    s += 10 * (attrib(d, c, EGL_SAMPLES) - static_cast<EGLint>(want.samples));
    return s;
  };
  EGLConfig best = configs[0];
  for (EGLConfig c : configs) {
    if (score(c) < score(best)) best = c;
  }
  return best;
}

wire::Result<std::unique_ptr<Surface>> Surface::create(const EglDisplay& display, uint32_t width,
                                                       uint32_t height, const wire::SurfaceConfig& cfg,
                                                       uint32_t flags) {
  auto config = choose_config(display, cfg, flags);
  if (!config) return config.error();
  std::unique_ptr<Surface> s(new Surface(display, *config, cfg, flags));
  WIRE_TRY(s->allocate(width, height));
  return s;
}

Surface::~Surface() {
  if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_.handle(), surface_);
  if (front_ != EGL_NO_SURFACE) eglDestroySurface(display_.handle(), front_);
}

wire::Result<EGLSurface> Surface::new_pbuffer(uint32_t width, uint32_t height) const {
  EGLDisplay d = display_.handle();
  auto max_w = static_cast<uint32_t>(attrib(d, config_, EGL_MAX_PBUFFER_WIDTH));
  auto max_h = static_cast<uint32_t>(attrib(d, config_, EGL_MAX_PBUFFER_HEIGHT));
  if (width == 0 || height == 0 || width > kMaxSurfaceSide || height > kMaxSurfaceSide ||
      (max_w && width > max_w) || (max_h && height > max_h)) {
    return make_error(Errc::kBadValue,
                      "surface size " + std::to_string(width) + "x" + std::to_string(height));
  }
  std::vector<EGLint> attribs{EGL_WIDTH, static_cast<EGLint>(width), EGL_HEIGHT, static_cast<EGLint>(height)};
  // Only sRGB surfaces name a colour space (hosts without EGL_KHR_gl_colorspace never get one).
  if (flags_ & wire::kSurfaceSrgb) attribs.insert(attribs.end(), {EGL_GL_COLORSPACE_KHR, EGL_GL_COLORSPACE_SRGB_KHR});
  if (texture()) {
    const EGLint format = flags_ & wire::kSurfaceTextureRgba ? EGL_TEXTURE_RGBA : EGL_TEXTURE_RGB;
    attribs.insert(attribs.end(), {EGL_TEXTURE_FORMAT, format, EGL_TEXTURE_TARGET, EGL_TEXTURE_2D, EGL_MIPMAP_TEXTURE,
                                   (flags_ & wire::kSurfaceMipmapTexture) ? EGL_TRUE : EGL_FALSE});
  }
  attribs.push_back(EGL_NONE);
  EGLSurface s = eglCreatePbufferSurface(d, config_, attribs.data());
  if (s == EGL_NO_SURFACE) {
    return make_error(Errc::kLimit, "eglCreatePbufferSurface " + std::to_string(width) + "x" +
                                        std::to_string(height) + " failed");
  }
  return s;
}

wire::Status Surface::allocate(uint32_t width, uint32_t height) {
  auto back = new_pbuffer(width, height);
  if (!back) return back.error();
  EGLSurface front = EGL_NO_SURFACE;
  if (front_ != EGL_NO_SURFACE) {
    auto made = new_pbuffer(width, height);
    if (!made) {
      eglDestroySurface(display_.handle(), *back);
      return made.error();
    }
    front = *made;
    eglDestroySurface(display_.handle(), front_);
  }
  if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_.handle(), surface_);
  surface_ = *back;
  front_ = front;
  width_ = width;
  height_ = height;
  return {};
}

wire::Status Surface::make_front() {
  if (!double_buffered() || front_ != EGL_NO_SURFACE) return {};
  auto made = new_pbuffer(width_, height_);
  if (!made) return made.error();
  front_ = *made;
  return {};
}

wire::Status Surface::resize(uint32_t width, uint32_t height) {
  if (width == width_ && height == height_) return {};
  return allocate(width, height);
}

size_t Surface::bytes_for(uint32_t width, uint32_t height, const wire::SurfaceConfig& cfg) {
  // Colour, depth and stencil a pixel, times the samples plus the resolved
  // image. The guest's numbers are capped where no EGL config goes (and
  // where they cannot overflow): such a request finds no config anyway.
  const size_t depth_stencil_bits = std::min<size_t>(size_t{cfg.depth} + cfg.stencil, 64);
  const size_t per_pixel = 4 + (depth_stencil_bits + 7) / 8;
  const size_t samples = std::clamp<size_t>(cfg.samples, 1, 64);
  return size_t{width} * height * per_pixel * (samples + (samples > 1 ? 1 : 0));
}

}  // namespace host
