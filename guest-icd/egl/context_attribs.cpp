#include "egl/context_attribs.h"

namespace icd {
namespace {

// The EGL_RENDERABLE_TYPE bit a config needs for the request.
EGLint renderable_bit(const ContextRequest& r) {
  if (r.profile != wire::Profile::kNone) return EGL_OPENGL_BIT;
  return r.major >= 3 ? EGL_OPENGL_ES3_BIT : r.major == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES_BIT;
}

}  // namespace

ContextRequest parse_context_attribs(EGLenum api, const EGLint* attribs) {
  ContextRequest r;
  const bool gl = api == EGL_OPENGL_API;
  EGLint profile_mask = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    const EGLint v = a[1];
    switch (a[0]) {
      case EGL_CONTEXT_MAJOR_VERSION: r.major = v; break;  // == EGL_CONTEXT_CLIENT_VERSION
      case EGL_CONTEXT_MINOR_VERSION: r.minor = v; break;
      case EGL_CONTEXT_OPENGL_PROFILE_MASK:
        if (!gl) r.error = EGL_BAD_ATTRIBUTE;
        profile_mask = v;
        break;
      case EGL_CONTEXT_OPENGL_DEBUG:
        if (v) r.flags |= wire::kContextDebug;
        break;
      case EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE:
        if (!gl) r.error = EGL_BAD_ATTRIBUTE;
        if (v) r.flags |= wire::kContextForwardCompatible;
        break;
      case EGL_CONTEXT_OPENGL_ROBUST_ACCESS:
        if (v) r.flags |= wire::kContextRobustAccess;
        break;
      case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY:
        if (v != EGL_NO_RESET_NOTIFICATION && v != EGL_LOSE_CONTEXT_ON_RESET) r.error = EGL_BAD_ATTRIBUTE;
        break;
      case EGL_CONTEXT_RELEASE_BEHAVIOR_KHR:  // EGL_KHR_context_flush_control
        if (v != EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR && v != EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR)
          r.error = EGL_BAD_ATTRIBUTE;
        if (v == EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR) r.flags |= wire::kContextReleaseNone;
        break;
      case EGL_CONTEXT_FLAGS_KHR:
        if (v & ~(EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR | EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR |
                  EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR))
          r.error = EGL_BAD_ATTRIBUTE;
        // Forward compatibility and robust access are OpenGL's flags only.
        if (!gl && (v & (EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR | EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR)))
          r.error = EGL_BAD_ATTRIBUTE;
        if (v & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR) r.flags |= wire::kContextDebug;
        if (v & EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR) r.flags |= wire::kContextRobustAccess;
        if (v & EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR) r.flags |= wire::kContextForwardCompatible;
        break;
      default: r.error = EGL_BAD_ATTRIBUTE;
    }
    if (!r.ok()) return r;
  }
  if (gl) {
    const auto profile = desktop_profile(r.major, r.minor, profile_mask, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                         EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT);
    if (profile) r.profile = *profile;
    else r.error = EGL_BAD_MATCH;  // none, both, or unknown bits (EGL_KHR_create_context)
  }
  return r;
}

EGLint check_context_request(const ContextRequest& r, const Config* config, const RenderCaps& caps) {
  if (!host_offers(caps, r.profile, r.major, r.minor)) return EGL_BAD_MATCH;
  if (config && !(config->renderable_type & renderable_bit(r))) return EGL_BAD_MATCH;
  return EGL_SUCCESS;
}

}  // namespace icd
