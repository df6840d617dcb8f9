// Displays, initialization, strings and configs.
#include "egl/objects.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "egl/api.h"
#include "egl/error.h"

namespace icd::egl {
namespace {

constexpr const char* kClientExtensions =
    "EGL_EXT_client_extensions EGL_EXT_platform_base EGL_KHR_platform_x11 EGL_EXT_platform_x11 "
    "EGL_MESA_platform_surfaceless EGL_KHR_client_get_all_proc_addresses EGL_EXT_device_base "
    "EGL_EXT_device_enumeration EGL_EXT_device_query EGL_EXT_platform_device";
constexpr const char* kPlatformExtensions =
    "EGL_KHR_platform_x11 EGL_EXT_platform_x11 EGL_MESA_platform_surfaceless EGL_EXT_platform_device";
// Client extensions (EGL_EXT_platform_base) are never display ones
// (EGL_EXT_client_extensions).
constexpr const char* kDisplayExtensions =
    "EGL_KHR_context_flush_control EGL_KHR_create_context EGL_KHR_fence_sync EGL_KHR_get_all_proc_addresses "
    "EGL_KHR_no_config_context EGL_MESA_configless_context EGL_KHR_surfaceless_context "
    "EGL_KHR_wait_sync EGL_MESA_query_driver";
// With a host that makes EGL images of GL objects.
constexpr const char* kImageExtensions =
    " EGL_KHR_image_base EGL_KHR_image EGL_KHR_gl_texture_2D_image EGL_KHR_gl_texture_cubemap_image"
    " EGL_KHR_gl_texture_3D_image EGL_KHR_gl_renderbuffer_image";
// With a host that makes sRGB surfaces.
constexpr const char* kColorspaceExtensions = " EGL_KHR_gl_colorspace";

// The display's extension string: what its host offers, kept for the
// display's life (eglQueryString hands out the pointer).
const char* display_extensions(Display& d) {
  static std::mutex mu;
  static std::map<std::pair<bool, bool>, std::string> strings;
  const std::pair key{d.host_offers(wire::kFeatureGlImages), d.offers_srgb()};
  std::lock_guard lock(mu);
  std::string& s = strings[key];
  if (s.empty())
    s = std::string(kDisplayExtensions) + (key.first ? kImageExtensions : "") + (key.second ? kColorspaceExtensions : "");
  return s.c_str();
}

const char* client_apis(const Display& d) {
  const auto& host = d.connection()->host().reply;
  const EGLint bits = renderable_bits(render_caps(host));
  const bool gl = bits & EGL_OPENGL_BIT;
  const bool gles = bits & (EGL_OPENGL_ES_BIT | EGL_OPENGL_ES2_BIT);
  if (gl && gles) return "OpenGL OpenGL_ES";
  return gl ? "OpenGL" : gles ? "OpenGL_ES" : "";
}

}  // namespace

const char* client_extensions() { return kClientExtensions; }
const char* platform_extensions() { return kPlatformExtensions; }

EGLDisplay get_platform_display(EGLenum platform, void* native, const EGLAttrib* attribs) {
  std::lock_guard lock(api_mutex());
  // eglGetDisplay(EGL_DEFAULT_DISPLAY) arrives as EGL_NONE: X11 when a
  // server is named, surfaceless otherwise.
  if (platform == EGL_NONE) {
    if (native) return EGL_NO_DISPLAY;  // libglvnd found no platform for it
    const char* name = std::getenv("DISPLAY");
    platform = name && *name ? EGL_PLATFORM_X11_KHR : EGL_PLATFORM_SURFACELESS_MESA;
  }
  for (const EGLAttrib* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    // EGL_PLATFORM_X11_SCREEN_KHR picks a screen; only the default is served.
    if (platform == EGL_PLATFORM_X11_KHR && a[0] == EGL_PLATFORM_X11_SCREEN_KHR) continue;
    return fail<EGLDisplay>(EGL_BAD_ATTRIBUTE, EGL_NO_DISPLAY);
  }
  if (platform == EGL_PLATFORM_SURFACELESS_MESA) {
    if (native) return fail<EGLDisplay>(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
  } else if (platform == EGL_PLATFORM_DEVICE_EXT) {
    if (native != guest_device()) return fail<EGLDisplay>(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
  } else if (platform != EGL_PLATFORM_X11_KHR) {
    return EGL_NO_DISPLAY;  // another vendor's platform: not an error of ours
  }
  set_error(EGL_SUCCESS);
  return get_display(platform, native);
}

EGLBoolean Initialize(EGLDisplay dpy, EGLint* major, EGLint* minor) {
  std::lock_guard lock(api_mutex());
  Display* d = find_display(dpy);
  if (!d) return fail(EGL_BAD_DISPLAY, EGL_FALSE);
  if (EGLint e = d->initialize(); e != EGL_SUCCESS) return fail(e, EGL_FALSE);
  if (major) *major = 1;
  if (minor) *minor = 5;
  return ok();
}

EGLBoolean Terminate(EGLDisplay dpy) {
  std::lock_guard lock(api_mutex());
  Display* d = find_display(dpy);
  if (!d) return fail(EGL_BAD_DISPLAY, EGL_FALSE);
  d->terminate();
  return ok();
}

const char* QueryString(EGLDisplay dpy, EGLint name) {
  std::lock_guard lock(api_mutex());
  if (dpy == EGL_NO_DISPLAY && name == EGL_EXTENSIONS) {
    set_error(EGL_SUCCESS);
    return kClientExtensions;
  }
  Display* d = initialized_display(dpy);
  if (!d) return nullptr;
  set_error(EGL_SUCCESS);
  switch (name) {
    case EGL_VENDOR: return "Conduit";
    case EGL_VERSION: return "1.5 Conduit";
    case EGL_EXTENSIONS: return display_extensions(*d);
    case EGL_CLIENT_APIS: return client_apis(*d);
    default: return fail<const char*>(EGL_BAD_PARAMETER, nullptr);
  }
}

// EGL_MESA_query_driver: the driver in the program's process is Conduit's,
// which has no driconf options (the host's driver keeps its own).
const char* GetDisplayDriverName(EGLDisplay dpy) {
  std::lock_guard lock(api_mutex());
  if (!initialized_display(dpy)) return nullptr;
  set_error(EGL_SUCCESS);
  return "conduit";
}

char* GetDisplayDriverConfig(EGLDisplay dpy) {
  std::lock_guard lock(api_mutex());
  if (!initialized_display(dpy)) return nullptr;
  set_error(EGL_SUCCESS);
  // The caller frees it.
  return strdup("<?xml version=\"1.0\" standalone=\"yes\"?>\n<driinfo>\n</driinfo>\n");
}

EGLBoolean GetConfigs(EGLDisplay dpy, EGLConfig* configs, EGLint size, EGLint* num) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  if (!num) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  const auto& all = d->configs();
  EGLint n = static_cast<EGLint>(all.size());
  if (configs) {
    n = std::min(n, std::max(size, 0));
    for (EGLint i = 0; i < n; ++i) configs[i] = d->handle_of(&all[static_cast<size_t>(i)]);
  }
  *num = n;
  return ok();
}

EGLBoolean ChooseConfig(EGLDisplay dpy, const EGLint* attribs, EGLConfig* configs, EGLint size,
                        EGLint* num) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  if (!num) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  auto filter = ConfigFilter::parse(attribs);
  if (!filter) return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  if (const EGLint pixmap = filter->native_pixmap(); pixmap != EGL_NONE) {
    // Asked on a connection of our own: a bad pixmap is EGL's error, not an X one.
    ::Display* x = d->x_display();
    if (!x) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
    auto presenter = Presenter::open(x, static_cast<Pixmap>(pixmap));
    if (!presenter->found()) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
    filter->set_native_pixmap_depth(presenter->depth());
  }
  auto chosen = choose_configs(d->configs(), *filter);
  EGLint n = static_cast<EGLint>(chosen.size());
  if (configs) {
    n = std::min(n, std::max(size, 0));
    for (EGLint i = 0; i < n; ++i) configs[i] = d->handle_of(chosen[static_cast<size_t>(i)]);
  }
  *num = n;
  return ok();
}

EGLBoolean GetConfigAttrib(EGLDisplay dpy, EGLConfig config, EGLint attribute, EGLint* value) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  const Config* c = d->find_config(config);
  if (!c) return fail(EGL_BAD_CONFIG, EGL_FALSE);
  auto v = config_attrib(*c, attribute);
  if (!v) return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  *value = *v;
  return ok();
}

EGLint GetError() { return take_error(); }

}  // namespace icd::egl
