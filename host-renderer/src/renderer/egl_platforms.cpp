#include "egl_platforms.h"

#include <fcntl.h>
#include <gbm.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifndef EGL_DRM_RENDER_NODE_FILE_EXT
#define EGL_DRM_RENDER_NODE_FILE_EXT 0x3377
#endif
#ifndef EGL_RENDERER_EXT
#define EGL_RENDERER_EXT 0x335F
#endif

namespace host {
namespace {

using wire::Errc;
using wire::make_error;

bool has_client_extension(const char* name) {
  const char* exts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  return exts && epoxy_extension_in_string(exts, name);
}

std::string egl_error_text() {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", eglGetError());
  return buf;
}

wire::Status initialize(EGLDisplay display, const char* what) {
  if (display == EGL_NO_DISPLAY) {
    return make_error(Errc::kIo, std::string(what) + ": no display (" + egl_error_text() + ")");
  }
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    return make_error(Errc::kIo, std::string(what) + ": eglInitialize failed (" + egl_error_text() + ")");
  }
  return {};
}

// A readable name for an EGL device: its DRM node when it has one.
std::string device_name(EGLDeviceEXT dev) {
  const char* exts = eglQueryDeviceStringEXT(dev, EGL_EXTENSIONS);
  if (exts && epoxy_extension_in_string(exts, "EGL_EXT_device_drm_render_node")) {
    if (const char* node = eglQueryDeviceStringEXT(dev, EGL_DRM_RENDER_NODE_FILE_EXT)) return node;
  }
  if (exts && epoxy_extension_in_string(exts, "EGL_EXT_device_drm")) {
    if (const char* node = eglQueryDeviceStringEXT(dev, EGL_DRM_DEVICE_FILE_EXT)) return node;
  }
  if (exts && epoxy_extension_in_string(exts, "EGL_EXT_device_query_name")) {
    if (const char* name = eglQueryDeviceStringEXT(dev, EGL_RENDERER_EXT)) return name;
  }
  if (exts && epoxy_extension_in_string(exts, "EGL_MESA_device_software")) return "software";
  return "unnamed";
}

}  // namespace

wire::Result<PlatformDisplay> open_device_platform(int gpu) {
  if (!has_client_extension("EGL_EXT_platform_device") ||
      !has_client_extension("EGL_EXT_device_enumeration")) {
    return make_error(Errc::kIo, "device platform: EGL_EXT_platform_device not supported");
  }
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count) || count <= 0) {
    return make_error(Errc::kIo, "device platform: no EGL devices");
  }
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  eglQueryDevicesEXT(count, devices.data(), &count);
  if (gpu >= count) {
    return make_error(Errc::kBadValue, "device platform: --gpu " + std::to_string(gpu) +
                                           " but only " + std::to_string(count) + " devices");
  }
  std::string errors;
  for (int i = gpu < 0 ? 0 : gpu; i < (gpu < 0 ? count : gpu + 1); ++i) {
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    auto st = initialize(d, "device platform");
    if (st) {
      return PlatformDisplay{d, "device " + std::to_string(i) + " (" + device_name(devices[i]) + ")"};
    }
    errors += st.error().detail + "; ";
  }
  return make_error(Errc::kIo, errors);
}

wire::Result<PlatformDisplay> open_gbm_platform(int gpu) {
  if (!has_client_extension("EGL_KHR_platform_gbm") && !has_client_extension("EGL_MESA_platform_gbm")) {
    return make_error(Errc::kIo, "gbm platform: EGL_KHR_platform_gbm not supported");
  }
  // Render nodes are numbered from 128 (drm(7)).
  for (int i = gpu < 0 ? 0 : gpu; i < (gpu < 0 ? 16 : gpu + 1); ++i) {
    std::string node = "/dev/dri/renderD" + std::to_string(128 + i);
    int fd = ::open(node.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) continue;
    gbm_device* gbm = gbm_create_device(fd);
    if (!gbm) {
      ::close(fd);
      continue;
    }
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_GBM_KHR, gbm, nullptr);
    if (initialize(d, "gbm platform")) return PlatformDisplay{d, "gbm (" + node + ")", fd, gbm};
    gbm_device_destroy(gbm);
    ::close(fd);
  }
  return make_error(Errc::kIo, "gbm platform: no usable render node");
}

wire::Result<PlatformDisplay> open_surfaceless_platform() {
  if (!has_client_extension("EGL_MESA_platform_surfaceless")) {
    return make_error(Errc::kIo, "surfaceless platform: EGL_MESA_platform_surfaceless not supported");
  }
  EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  WIRE_TRY(initialize(d, "surfaceless platform"));
  return PlatformDisplay{d, "surfaceless"};
}

void close_platform_display(PlatformDisplay& pd) {
  if (pd.display != EGL_NO_DISPLAY) eglTerminate(pd.display);
  pd.display = EGL_NO_DISPLAY;
  if (pd.gbm) gbm_device_destroy(pd.gbm);
  pd.gbm = nullptr;
  if (pd.drm_fd >= 0) ::close(pd.drm_fd);
  pd.drm_fd = -1;
}

}  // namespace host
