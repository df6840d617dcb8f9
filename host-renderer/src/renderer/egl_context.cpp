#include "host/egl_context.h"

#include <cstdio>
#include <string>
#include <vector>

namespace host {

using wire::Errc;
using wire::make_error;

wire::Status validate_request(const ContextRequest& req) {
  if (req.api != wire::Api::kGles && req.api != wire::Api::kGl) {
    return make_error(Errc::kBadValue, "api " + std::to_string(static_cast<uint32_t>(req.api)));
  }
  if (req.major < 1 || req.major > 4 || req.minor > 6) {
    return make_error(Errc::kBadValue,
                      "version " + std::to_string(req.major) + "." + std::to_string(req.minor));
  }
  if (static_cast<uint32_t>(req.profile) > static_cast<uint32_t>(wire::Profile::kCompatibility)) {
    return make_error(Errc::kBadValue, "profile " + std::to_string(static_cast<uint32_t>(req.profile)));
  }
  constexpr uint32_t kKnownFlags = wire::kContextDebug | wire::kContextRobustAccess |
                                   wire::kContextForwardCompatible | wire::kContextReleaseNone;
  if (req.flags & ~kKnownFlags) return make_error(Errc::kBadValue, "context flags " + std::to_string(req.flags));
  return {};
}

wire::Result<EGLContext> create_egl_context(const EglDisplay& display, const ContextRequest& req,
                                            EGLContext share) {
  WIRE_TRY(validate_request(req));
  EGLenum api = req.api == wire::Api::kGles ? EGL_OPENGL_ES_API : EGL_OPENGL_API;
  if (!display.supports_api(api) || !eglBindAPI(api)) {
    return make_error(Errc::kBadValue, req.api == wire::Api::kGles ? "no OpenGL ES" : "no OpenGL");
  }
  std::vector<EGLint> attribs = {EGL_CONTEXT_MAJOR_VERSION, static_cast<EGLint>(req.major),
                                 EGL_CONTEXT_MINOR_VERSION, static_cast<EGLint>(req.minor)};
  // Profiles exist from OpenGL 3.2 on (EGL 1.5 section 3.7.1.1).
  if (req.api == wire::Api::kGl && (req.major > 3 || (req.major == 3 && req.minor >= 2))) {
    attribs.insert(attribs.end(),
                   {EGL_CONTEXT_OPENGL_PROFILE_MASK, req.profile == wire::Profile::kCompatibility
                                                         ? EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT
                                                         : EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT});
  }
  if (req.flags & wire::kContextDebug) attribs.insert(attribs.end(), {EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE});
  if (req.flags & wire::kContextRobustAccess) {
    attribs.insert(attribs.end(), {EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE});
  }
  // Forward compatibility is desktop OpenGL's, from 3.0 on (EGL 1.5, 3.7.1.1).
  if ((req.flags & wire::kContextForwardCompatible) && req.api == wire::Api::kGl && req.major >= 3) {
    attribs.insert(attribs.end(), {EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE, EGL_TRUE});
  }
  // Without the extension the context flushes when released, as GL's
  // GL_CONTEXT_RELEASE_BEHAVIOR then tells the program.
  if ((req.flags & wire::kContextReleaseNone) && display.has_extension("EGL_KHR_context_flush_control")) {
    attribs.insert(attribs.end(), {EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR});
  }
  attribs.push_back(EGL_NONE);
  EGLConfig config = display.configless() ? EGL_NO_CONFIG_KHR : display.default_config();
  EGLContext ctx = eglCreateContext(display.handle(), config, share, attribs.data());
  if (ctx == EGL_NO_CONTEXT) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04x", eglGetError());
    return make_error(Errc::kBadValue, "eglCreateContext " + std::to_string(req.major) + "." +
                                           std::to_string(req.minor) + " failed (" + code + ")");
  }
  return ctx;
}

bool make_current(EGLDisplay display, wire::Api api, EGLContext ctx, EGLSurface draw, EGLSurface read) {
  if (ctx != EGL_NO_CONTEXT) eglBindAPI(api == wire::Api::kGles ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
  return eglMakeCurrent(display, draw, read, ctx) == EGL_TRUE;
}

}  // namespace host
