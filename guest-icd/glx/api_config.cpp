// Visuals and FBConfigs: choosing, listing and describing them.
#include "glx/objects.h"

#include <X11/Xutil.h>

#include <cstdlib>
#include "glx/protocol.h"

#include "glx/api.h"

namespace icd::glx {
namespace {

// An array the application frees with XFree (which is free()).
GLXFBConfig* config_array(const GlxDisplay& d, const std::vector<const FbConfig*>& configs, int* count) {
  if (count) *count = static_cast<int>(configs.size());
  if (configs.empty()) return nullptr;
  auto* out = static_cast<GLXFBConfig*>(std::malloc(configs.size() * sizeof(GLXFBConfig)));
  if (!out) return nullptr;
  for (size_t i = 0; i < configs.size(); ++i) out[i] = d.handle_of(configs[i]);
  return out;
}

XVisualInfo* visual_info(::Display* dpy, VisualID id) {
  XVisualInfo templ{};
  templ.visualid = id;
  templ.screen = DefaultScreen(dpy);
  int n = 0;
  return XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &templ, &n);
}

}  // namespace

XVisualInfo* ChooseVisual(::Display* dpy, int screen, int* attribs) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  if (!d || screen != DefaultScreen(dpy)) return nullptr;
  auto filter = FbConfigFilter::parse_visual(attribs);
  if (!filter) {
    send_error(dpy, BadValue, 0, X_GLXGetVisualConfigs, true);
    return nullptr;
  }
  auto chosen = choose_fbconfigs(d->configs(), *filter);
  if (chosen.empty()) return nullptr;
  XVisualInfo* info = visual_info(dpy, chosen.front()->visual);
  if (info) d->remember_chosen(info, chosen.front());
  return info;
}

int GetConfig(::Display* dpy, XVisualInfo* visual, int attribute, int* value) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  if (!d || !visual || !value) return GLX_BAD_VALUE;
  const FbConfig* c = d->config_for(visual);
  if (!c) {
    if (attribute != GLX_USE_GL) return GLX_BAD_VISUAL;
    *value = False;  // a visual without GL support
    return Success;
  }
  if (attribute == GLX_USE_GL || attribute == GLX_RGBA) {
    *value = True;
    return Success;
  }
  auto v = fbconfig_attrib(*c, attribute);
  if (!v) return GLX_BAD_ATTRIBUTE;
  *value = *v;
  return Success;
}

GLXFBConfig* ChooseFBConfig(::Display* dpy, int screen, const int* attribs, int* count) {
  std::lock_guard lock(api_mutex());
  if (count) *count = 0;
  GlxDisplay* d = get_display(dpy);
  if (!d || screen != DefaultScreen(dpy)) return nullptr;
  auto filter = FbConfigFilter::parse(attribs);
  if (!filter) {
    send_error(dpy, BadValue, 0, X_GLXGetFBConfigs, true);
    return nullptr;
  }
  return config_array(*d, choose_fbconfigs(d->configs(), *filter), count);
}

GLXFBConfig* GetFBConfigs(::Display* dpy, int screen, int* count) {
  std::lock_guard lock(api_mutex());
  if (count) *count = 0;
  GlxDisplay* d = get_display(dpy);
  if (!d || screen != DefaultScreen(dpy)) return nullptr;
  std::vector<const FbConfig*> all;
  for (const auto& c : d->configs()) all.push_back(&c);
  return config_array(*d, all, count);
}

int GetFBConfigAttrib(::Display* dpy, GLXFBConfig config, int attribute, int* value) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  const FbConfig* c = d ? d->find_config(config) : nullptr;
  if (!c) return GLXBadFBConfig;
  auto v = fbconfig_attrib(*c, attribute);
  if (!v) return GLX_BAD_ATTRIBUTE;
  if (value) *value = *v;
  return Success;
}

XVisualInfo* GetVisualFromFBConfig(::Display* dpy, GLXFBConfig config) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  const FbConfig* c = d ? d->find_config(config) : nullptr;
  if (!c || !c->visual) return nullptr;
  return visual_info(dpy, c->visual);
}

}  // namespace icd::glx
