// The strings GLX reports about Conduit, and which screens it drives.
#include "glx/objects.h"

#include "glx/api.h"

namespace icd::glx {
namespace {

constexpr const char* kVendor = "Conduit";
constexpr const char* kVersion = "1.4";
constexpr const char* kExtensions =
    "GLX_ARB_context_flush_control GLX_ARB_create_context GLX_ARB_create_context_profile "
    "GLX_ARB_get_proc_address "
    "GLX_EXT_create_context_es2_profile GLX_EXT_create_context_es_profile "
    "GLX_ARB_multisample GLX_EXT_swap_control GLX_EXT_visual_info GLX_MESA_query_renderer "
    "GLX_MESA_swap_control "
    "GLX_SGI_swap_control";

const char* string_for(int name) {
  switch (name) {
    case GLX_VENDOR: return kVendor;
    case GLX_VERSION: return kVersion;
    case GLX_EXTENSIONS: return kExtensions;
    default: return nullptr;
  }
}

}  // namespace

const char* QueryExtensionsString(::Display* dpy, int screen) {
  if (!dpy || screen != DefaultScreen(dpy)) return nullptr;
  return kExtensions;
}

const char* QueryServerString(::Display* dpy, int screen, int name) {
  if (!dpy || screen != DefaultScreen(dpy)) return nullptr;
  return string_for(name);
}

const char* GetClientString(::Display*, int name) { return string_for(name); }

Bool IsScreenSupported(::Display* dpy, int screen) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  // Only the default screen has configs; without a host nothing renders.
  return d && screen == DefaultScreen(dpy) && d->connect() ? True : False;
}

}  // namespace icd::glx
