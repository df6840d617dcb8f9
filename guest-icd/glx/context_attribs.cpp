#include "glx/context_attribs.h"

#include "glx/protocol.h"

namespace icd::glx {
namespace {

constexpr int kKnownFlags = GLX_CONTEXT_DEBUG_BIT_ARB | GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB;
constexpr int kKnownProfiles = GLX_CONTEXT_CORE_PROFILE_BIT_ARB |
                               GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB |
                               GLX_CONTEXT_ES_PROFILE_BIT_EXT;

}  // namespace

ContextRequest parse_context_attribs(const int* attribs) {
  ContextRequest r;
  for (const int* a = attribs; a && a[0] != None; a += 2) {
    switch (a[0]) {
      case GLX_CONTEXT_MAJOR_VERSION_ARB: r.major = a[1]; break;
      case GLX_CONTEXT_MINOR_VERSION_ARB: r.minor = a[1]; break;
      case GLX_CONTEXT_FLAGS_ARB: r.flags = a[1]; break;
      case GLX_CONTEXT_PROFILE_MASK_ARB: r.profile_mask = a[1]; break;
      case GLX_RENDER_TYPE: r.render_type = a[1]; break;
      case GLX_SCREEN: r.screen = a[1]; break;
      case GLX_CONTEXT_RELEASE_BEHAVIOR_ARB:  // GLX_ARB_context_flush_control
        if (a[1] != GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB && a[1] != GLX_CONTEXT_RELEASE_BEHAVIOR_FLUSH_ARB) {
          r.error = BadValue;
          return r;
        }
        r.release_none = a[1] == GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB;
        break;
      default:
        r.error = BadValue;
        return r;
    }
  }
  const bool es = r.profile_mask == GLX_CONTEXT_ES_PROFILE_BIT_EXT;
  if (r.flags & ~kKnownFlags) r.error = BadValue;
  else if (r.render_type == GLX_COLOR_INDEX_TYPE) r.error = BadMatch;  // a type GLX has, no context offers
  else if (r.render_type != GLX_RGBA_TYPE) r.error = BadValue;
  else if (es ? !gles_version_exists(r.major, r.minor) : !gl_version_exists(r.major, r.minor)) r.error = BadMatch;
  else if ((r.flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB) && r.major < 3) r.error = BadMatch;
  else if (r.profile_mask & ~kKnownProfiles || __builtin_popcount(r.profile_mask & kKnownProfiles) != 1) {  // one profile
    r.error = GLXBadProfileARB;
    r.glx_error = true;
  }
  return r;
}

HostContext host_context_for(ContextRequest& r, const RenderCaps& caps) {
  if (r.profile_mask & GLX_CONTEXT_ES_PROFILE_BIT_EXT) {
    const bool es_only = r.profile_mask == GLX_CONTEXT_ES_PROFILE_BIT_EXT;
    if (!es_only || !host_offers(caps, wire::Profile::kNone, r.major, r.minor)) {
      r.error = BadMatch;
      return {};
    }
    return HostContext{r.major, r.minor, false, true};
  }
  // Before 3.2 there are no profiles: such requests get compatibility,
  // unless forward-compatible (3.0/3.1 without deprecated features: 3.2 core).
  const bool forward = (r.flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB) != 0;
  const bool core = forward || desktop_profile(r.major, r.minor, r.profile_mask, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                                               GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB) == wire::Profile::kCore;
  const bool raised = core && !has_profiles(r.major, r.minor);
  const int major = raised ? 3 : r.major;
  const int minor = raised ? 2 : r.minor;
  if (!host_offers(caps, core ? wire::Profile::kCore : wire::Profile::kCompatibility, major, minor)) {
    r.error = BadMatch;
    return {};
  }
  if (core) return HostContext{major, minor, true};
  return HostContext{caps.max_gl_compat / 10, caps.max_gl_compat % 10, false};
}

}  // namespace icd::glx
