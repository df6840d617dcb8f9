// The host's EGL display: which platform it runs on (device, GBM render node,
// Mesa surfaceless), which configs it offers, and what GL it provides.
#pragma once

#include <epoxy/egl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "wire/result.h"

struct gbm_device;

namespace host {

enum class PlatformKind { kAuto, kDevice, kGbm, kSurfaceless };

// "auto", "device", "gbm" or "surfaceless".
wire::Result<PlatformKind> parse_platform(std::string_view name);
const char* platform_name(PlatformKind kind);

struct DisplayOptions {
  PlatformKind platform = PlatformKind::kAuto;
  int gpu = -1;  // device index (device platform) or render node index (gbm); -1 = first that works
};

// What the display offers, probed once at start.
struct RendererInfo {
  std::string platform;  // "device (/dev/dri/renderD128)", "surfaceless", ...
  std::string renderer, vendor;
  std::string gles_version, gl_core_version, gl_compat_version;  // GL_VERSION strings, empty if absent
  uint32_t max_gles = 0, max_gl_core = 0, max_gl_compat = 0;     // major * 10 + minor
  std::string gles1_version;  // OpenGL ES 1.x, which newer versions do not include
  uint32_t max_gles1 = 0;
  std::string egl_version, egl_extensions;
  // Space-separated, of the probed contexts (core and compatibility profiles).
  std::string gles1_extensions, gles_extensions, gl_extensions, gl_compat_extensions;
};

// A version number as Conduit sends it: major * 10 + minor.
constexpr uint32_t version_code(uint32_t major, uint32_t minor) { return major * 10 + minor; }

class EglDisplay {
 public:
  // Opens the requested platform, or the first that works in the order
  // device, gbm, surfaceless.
  static wire::Result<std::unique_ptr<EglDisplay>> open(const DisplayOptions& opts);
  ~EglDisplay();
  EglDisplay(const EglDisplay&) = delete;
  EglDisplay& operator=(const EglDisplay&) = delete;

  EGLDisplay handle() const { return display_; }
  const RendererInfo& info() const { return info_; }
  bool has_extension(const char* name) const;

  // Contexts are created without a config when EGL_KHR_no_config_context is
  // there (any surface fits); otherwise with this config.
  bool configless() const { return configless_; }
  EGLConfig default_config() const { return default_config_; }
  bool surfaceless_context() const { return surfaceless_context_; }
  bool supports_api(EGLenum api) const;

 private:
  EglDisplay() = default;
  wire::Status initialize();
  wire::Status probe();

  EGLDisplay display_ = EGL_NO_DISPLAY;
  int drm_fd_ = -1;             // GBM only; closed after the display
  gbm_device* gbm_ = nullptr;   // GBM only; destroyed after the display
  bool configless_ = false;
  bool surfaceless_context_ = false;
  EGLConfig default_config_ = nullptr;
  RendererInfo info_;
};

}  // namespace host
