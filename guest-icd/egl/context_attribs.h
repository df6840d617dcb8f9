// eglCreateContext attribute lists (EGL 1.5 section 3.7.1 and
// EGL_KHR_create_context): what was asked for and whether it can be had.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdint>

#include "context_request.h"
#include "egl/config.h"
#include "wire/control.h"

namespace icd {

struct ContextRequest {
  EGLint error = EGL_SUCCESS;  // set when the list itself is wrong
  int major = 1;
  int minor = 0;
  wire::Profile profile = wire::Profile::kNone;
  uint32_t flags = 0;  // wire CreateContext flags: 1 debug, 2 robust access

  bool ok() const { return error == EGL_SUCCESS; }
};

ContextRequest parse_context_attribs(EGLenum api, const EGLint* attribs);

// EGL_SUCCESS, or the error for a version, profile or config the host or
// the config cannot serve.
EGLint check_context_request(const ContextRequest& request, const Config* config,
                             const RenderCaps& caps);

}  // namespace icd
