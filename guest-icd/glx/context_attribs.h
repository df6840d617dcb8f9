// GLX_ARB_create_context(_profile) attribute lists and what the host is
// asked for.
#pragma once

#include <GL/glx.h>

#include "context_request.h"

namespace icd::glx {

struct ContextRequest {
  int major = 1, minor = 0;
  int flags = 0;
  int profile_mask = GLX_CONTEXT_CORE_PROFILE_BIT_ARB;
  int render_type = GLX_RGBA_TYPE;
  int screen = -1;
  bool release_none = false;  // GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB
  // X error to report (core code or GLX code) when the list is wrong.
  int error = 0;
  bool glx_error = false;
};

// Parses a glXCreateContextAttribsARB list (null: defaults).
ContextRequest parse_context_attribs(const int* attribs);

// What the host creates for a request: a compatibility context of the
// host's highest version for legacy requests (any later compatibility
// version is backwards compatible, GLX_ARB_create_context), the requested
// version for core and OpenGL ES ones. Sets `error` when the host cannot
// serve it.
struct HostContext {
  int major = 0, minor = 0;
  bool core = false;
  bool gles = false;  // an OpenGL ES context (GLX_EXT_create_context_es_profile)
};
HostContext host_context_for(ContextRequest& request, const RenderCaps& caps);

}  // namespace icd::glx
