#include "host/egl_display.h"

#include <epoxy/gl.h>
#include <gbm.h>
#include <unistd.h>

#include <cstdio>
#include <span>
#include <string>

#include "driver_libraries.h"
#include "egl_platforms.h"
#include "host/egl_context.h"

namespace host {

using wire::Errc;
using wire::make_error;

wire::Result<PlatformKind> parse_platform(std::string_view name) {
  if (name == "auto") return PlatformKind::kAuto;
  if (name == "device") return PlatformKind::kDevice;
  if (name == "gbm") return PlatformKind::kGbm;
  if (name == "surfaceless") return PlatformKind::kSurfaceless;
  return make_error(Errc::kBadValue, "unknown platform '" + std::string(name) +
                                         "' (auto, device, gbm, surfaceless)");
}

const char* platform_name(PlatformKind kind) {
  switch (kind) {
    case PlatformKind::kAuto: return "auto";
    case PlatformKind::kDevice: return "device";
    case PlatformKind::kGbm: return "gbm";
    case PlatformKind::kSurfaceless: return "surfaceless";
  }
  return "?";
}

namespace {

wire::Result<PlatformDisplay> open_one(PlatformKind kind, int gpu) {
  switch (kind) {
    case PlatformKind::kDevice: return open_device_platform(gpu);
    case PlatformKind::kGbm: return open_gbm_platform(gpu);
    case PlatformKind::kSurfaceless: return open_surfaceless_platform();
    case PlatformKind::kAuto: break;
  }
  return make_error(Errc::kBadValue, "no platform");
}

// "OpenGL ES 3.2 Mesa ..." or "4.5 (Core Profile) Mesa ..." -> 32 / 45.
uint32_t parse_version(const char* s) {
  if (!s) return 0;
  std::string v = s;
  auto digit = v.find_first_of("0123456789");
  unsigned major = 0, minor = 0;
  if (digit == std::string::npos || std::sscanf(v.c_str() + digit, "%u.%u", &major, &minor) != 2) return 0;
  return version_code(major, minor);
}

const char* gl_string(GLenum name) {
  const GLubyte* s = glGetString(name);
  return s ? reinterpret_cast<const char*>(s) : "";
}

std::string extension_list() {
  if (epoxy_gl_version() < 30) return gl_string(GL_EXTENSIONS);  // no indexed list before 3.0
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  std::string out;
  for (GLint i = 0; i < n; ++i) {
    const GLubyte* e = glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i));
    if (!e) continue;
    if (!out.empty()) out += ' ';
    out += reinterpret_cast<const char*>(e);
  }
  return out;
}

}  // namespace

wire::Result<std::unique_ptr<EglDisplay>> EglDisplay::open(const DisplayOptions& opts) {
  std::string errors;
  const auto before = loaded_libraries();
  const PlatformKind order[] = {PlatformKind::kDevice, PlatformKind::kGbm, PlatformKind::kSurfaceless};
  for (PlatformKind kind : order) {
    if (opts.platform != PlatformKind::kAuto && opts.platform != kind) continue;
    auto pd = open_one(kind, opts.gpu);
    if (!pd) {
      errors += pd.error().detail + "; ";
      continue;
    }
    std::unique_ptr<EglDisplay> d(new EglDisplay());
    d->display_ = pd->display;
    d->drm_fd_ = pd->drm_fd;
    d->gbm_ = pd->gbm;
    d->info_.platform = pd->description;
    auto st = d->initialize();
    if (st) {
      keep_libraries_loaded_since(before);
      return d;
    }
    errors += pd->description + ": " + st.error().detail + "; ";
  }
  return make_error(Errc::kIo, "no usable EGL platform: " + errors);
}

EglDisplay::~EglDisplay() {
  PlatformDisplay pd{display_, {}, drm_fd_, gbm_};
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  close_platform_display(pd);
}

bool EglDisplay::has_extension(const char* name) const {
  return epoxy_has_egl_extension(display_, name);
}

bool EglDisplay::supports_api(EGLenum api) const {
  const char* apis = eglQueryString(display_, EGL_CLIENT_APIS);
  if (!apis) return false;
  std::string list = std::string(" ") + apis + " ";
  return list.find(api == EGL_OPENGL_ES_API ? " OpenGL_ES " : " OpenGL ") != std::string::npos;
}

wire::Status EglDisplay::initialize() {
  configless_ = has_extension("EGL_KHR_no_config_context") || has_extension("EGL_MESA_configless_context");
  surfaceless_context_ = has_extension("EGL_KHR_surfaceless_context");
  const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                            EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24,
                            EGL_STENCIL_SIZE, 8, EGL_NONE};
  EGLint n = 0;
  if (!eglChooseConfig(display_, attribs, &default_config_, 1, &n) || n < 1) {
    return make_error(Errc::kIo, "no RGBA8 pbuffer config");
  }
  info_.egl_version = eglQueryString(display_, EGL_VERSION);
  info_.egl_extensions = eglQueryString(display_, EGL_EXTENSIONS);
  return probe();
}

// Creates the highest context of each API once, to learn what guests can ask for.
wire::Status EglDisplay::probe() {
  struct Probe {
    wire::Api api;
    wire::Profile profile;
    std::string* version;
    uint32_t* code;
    std::string* extensions;
    std::span<const uint32_t> versions;  // highest first
  };
  static constexpr uint32_t kGles1[] = {11, 10};
  static constexpr uint32_t kGles[] = {32, 31, 30, 20};
  static constexpr uint32_t kGlCore[] = {46, 45, 44, 43, 42, 41, 40, 33, 32};
  static constexpr uint32_t kGlCompat[] = {46, 45, 44, 43, 42, 41, 40, 33, 32, 31, 30, 20};
  const Probe probes[] = {
      {wire::Api::kGles, wire::Profile::kNone, &info_.gles1_version, &info_.max_gles1, &info_.gles1_extensions,
       kGles1},
      {wire::Api::kGles, wire::Profile::kNone, &info_.gles_version, &info_.max_gles, &info_.gles_extensions, kGles},
      {wire::Api::kGl, wire::Profile::kCore, &info_.gl_core_version, &info_.max_gl_core, &info_.gl_extensions,
       kGlCore},
      {wire::Api::kGl, wire::Profile::kCompatibility, &info_.gl_compat_version, &info_.max_gl_compat,
       &info_.gl_compat_extensions, kGlCompat},
  };
  EGLSurface pbuffer = EGL_NO_SURFACE;
  if (!surfaceless_context_) {
    const EGLint size[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    pbuffer = eglCreatePbufferSurface(display_, default_config_, size);
  }
  for (const Probe& p : probes) {
    for (uint32_t v : p.versions) {
      auto ctx = create_egl_context(*this, {p.api, v / 10, v % 10, p.profile, 0}, EGL_NO_CONTEXT);
      if (!ctx) continue;
      if (make_current(display_, p.api, *ctx, pbuffer, pbuffer)) {
        *p.version = gl_string(GL_VERSION);
        *p.code = parse_version(p.version->c_str());
        if (p.extensions) *p.extensions = extension_list();
        if (info_.renderer.empty() || p.api == wire::Api::kGl) {
          info_.renderer = gl_string(GL_RENDERER);
          info_.vendor = gl_string(GL_VENDOR);
        }
        make_current(display_, p.api, EGL_NO_CONTEXT, EGL_NO_SURFACE, EGL_NO_SURFACE);
      }
      eglDestroyContext(display_, *ctx);
      break;
    }
  }
  if (pbuffer != EGL_NO_SURFACE) eglDestroySurface(display_, pbuffer);
  if (info_.max_gles == 0 && info_.max_gl_core == 0 && info_.max_gl_compat == 0) {
    return make_error(Errc::kIo, "no OpenGL or OpenGL ES context could be created");
  }
  return {};
}

}  // namespace host
