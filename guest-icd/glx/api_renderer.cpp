// GLX_MESA_query_renderer: what renders for a screen, from what the host
// told at hello. The renderer is the host's GPU seen through Conduit: it has
// no PCI ids of its own, its version is the host driver's, and its memory
// is what the host lets this guest hold.
#include "glx/objects.h"

#include <regex>
#include <string>

#include "glx/api.h"

namespace icd::glx {
namespace {

constexpr unsigned kNoPciId = 0xFFFFFFFF;  // as drivers without a PCI device say

// The host driver's version: the last dotted number of its GL_VERSION
// ("4.5 (Compatibility Profile) Mesa 22.3.6", "4.6.0 NVIDIA 535.129.03").
void driver_version(const std::string& gl_version, unsigned* out) {
  static const std::regex kDotted(R"((\d+)\.(\d+)(?:\.(\d+))?)");
  out[0] = out[1] = out[2] = 0;
  std::smatch last;
  for (auto it = std::sregex_iterator(gl_version.begin(), gl_version.end(), kDotted); it != std::sregex_iterator(); ++it) {
    last = *it;
  }
  if (last.empty() || last.position(0) == 0) return;  // only the GL version itself
  for (int i = 0; i < 3; ++i) out[i] = last[i + 1].matched ? static_cast<unsigned>(std::stoul(last[i + 1])) : 0;
}

// Software rasterizers of the host (Mesa's) render without a GPU.
bool accelerated(const std::string& renderer) {
  static const std::regex kSoftware("llvmpipe|softpipe|swrast|Software Rasterizer", std::regex::icase);
  return !std::regex_search(renderer, kSoftware);
}

// The values of `attribute`, the number written; 0 for an unknown one.
int integer_values(const GlxDisplay& d, int attribute, unsigned* value) {
  const HostInfo& host = d.connection()->host();
  const RenderCaps caps = d.caps();
  auto version = [&](int code) {
    value[0] = static_cast<unsigned>(code / 10);
    value[1] = static_cast<unsigned>(code % 10);
    return 2;
  };
  switch (attribute) {
    case GLX_RENDERER_VENDOR_ID_MESA:
    case GLX_RENDERER_DEVICE_ID_MESA: value[0] = kNoPciId; return 1;
    case GLX_RENDERER_VERSION_MESA: driver_version(host.gl_version, value); return 3;
    case GLX_RENDERER_ACCELERATED_MESA: value[0] = accelerated(host.renderer); return 1;
    case GLX_RENDERER_VIDEO_MEMORY_MESA: value[0] = static_cast<unsigned>(host.guest_memory_bytes >> 20); return 1;
    case GLX_RENDERER_UNIFIED_MEMORY_ARCHITECTURE_MESA: value[0] = !accelerated(host.renderer); return 1;
    case GLX_RENDERER_PREFERRED_PROFILE_MESA:
      value[0] = caps.max_gl_core != 0 && caps.max_gl_core >= caps.max_gl_compat ? GLX_CONTEXT_CORE_PROFILE_BIT_ARB
                                                       : GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB;
      return 1;
    case GLX_RENDERER_OPENGL_CORE_PROFILE_VERSION_MESA: return version(caps.max_gl_core);
    case GLX_RENDERER_OPENGL_COMPATIBILITY_PROFILE_VERSION_MESA: return version(caps.max_gl_compat);
    case GLX_RENDERER_OPENGL_ES_PROFILE_VERSION_MESA: return version(caps.gles1 ? 11 : 0);
    case GLX_RENDERER_OPENGL_ES2_PROFILE_VERSION_MESA: return version(caps.max_gles);
    default: return 0;
  }
}

const char* string_value(const GlxDisplay& d, int attribute) {
  const HostInfo& host = d.connection()->host();
  switch (attribute) {
    case GLX_RENDERER_VENDOR_ID_MESA: return host.vendor.c_str();
    case GLX_RENDERER_DEVICE_ID_MESA: return host.renderer.c_str();
    default: return nullptr;
  }
}

// The display of `screen` with a host; renderer 0 is the only one.
GlxDisplay* renderer_display(::Display* dpy, int screen, int renderer) {
  GlxDisplay* d = get_display(dpy);
  return d && screen == DefaultScreen(dpy) && renderer == 0 && d->connect() ? d : nullptr;
}

GlxDisplay* current_display() {
  const Current& cur = current();
  return cur.context && cur.display && cur.display->connect() ? cur.display : nullptr;
}

}  // namespace

Bool QueryRendererIntegerMESA(::Display* dpy, int screen, int renderer, int attribute, unsigned int* value) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = renderer_display(dpy, screen, renderer);
  return d && value && integer_values(*d, attribute, value) > 0 ? True : False;
}

Bool QueryCurrentRendererIntegerMESA(int attribute, unsigned int* value) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = current_display();
  return d && value && integer_values(*d, attribute, value) > 0 ? True : False;
}

const char* QueryRendererStringMESA(::Display* dpy, int screen, int renderer, int attribute) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = renderer_display(dpy, screen, renderer);
  return d ? string_value(*d, attribute) : nullptr;
}

const char* QueryCurrentRendererStringMESA(int attribute) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = current_display();
  return d ? string_value(*d, attribute) : nullptr;
}

}  // namespace icd::glx
