// Opening an EGLDisplay on each supported platform (internal to EglDisplay).
#pragma once

#include <epoxy/egl.h>

#include <string>

#include "wire/result.h"

struct gbm_device;

namespace host {

struct PlatformDisplay {
  EGLDisplay display = EGL_NO_DISPLAY;  // initialized
  std::string description;              // e.g. "device 0 (/dev/dri/renderD128)"
  int drm_fd = -1;                      // owned, GBM only
  gbm_device* gbm = nullptr;            // owned, GBM only
};

// Each returns an initialized display or says why there is none.
wire::Result<PlatformDisplay> open_device_platform(int gpu);
wire::Result<PlatformDisplay> open_gbm_platform(int gpu);
wire::Result<PlatformDisplay> open_surfaceless_platform();

// Releases what a PlatformDisplay owns (terminates the display first).
void close_platform_display(PlatformDisplay& pd);

}  // namespace host
