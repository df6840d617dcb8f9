// Creating host EGL contexts for what a guest asks (API, version, profile).
#pragma once

#include <epoxy/egl.h>

#include <cstdint>

#include "host/egl_display.h"
#include "wire/control.h"
#include "wire/result.h"

namespace host {

struct ContextRequest {
  wire::Api api = wire::Api::kGles;
  uint32_t major = 2, minor = 0;
  wire::Profile profile = wire::Profile::kNone;
  uint32_t flags = 0;  // 1 = debug, 2 = robust access
};

// Checks the request against what the protocol allows (guest bytes).
wire::Status validate_request(const ContextRequest& req);

// Binds the request's API on this thread and creates the context. Fails with
// kBadValue when the host cannot provide that version.
wire::Result<EGLContext> create_egl_context(const EglDisplay& display, const ContextRequest& req,
                                            EGLContext share);

// Binds the context's API and makes it current; `draw`/`read` may be
// EGL_NO_SURFACE with EGL_KHR_surfaceless_context.
bool make_current(EGLDisplay display, wire::Api api, EGLContext ctx, EGLSurface draw, EGLSurface read);

}  // namespace host
