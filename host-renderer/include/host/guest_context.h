// One guest GL/GLES context on the host: its EGL context and GL state.
#pragma once

#include <epoxy/egl.h>

#include <cstdint>
#include <memory>

#include "host/gl_dispatch.h"
#include "wire/control.h"

namespace host {

struct GuestContext {
  uint32_t id = 0;
  wire::Api api = wire::Api::kGles;
  EGLContext egl = EGL_NO_CONTEXT;
  // Destroyed before `egl`, with `egl` current.
  std::unique_ptr<GlContextState> state;
  // Sticky after the first protocol error: its GL commands are skipped.
  bool lost = false;
};

}  // namespace host
