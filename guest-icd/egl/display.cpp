#include "egl/objects.h"

#include <X11/Xutil.h>

#include <algorithm>

#include "conn/per_thread.h"
#include "egl/error.h"


namespace icd {
namespace {

// Never destroyed: programs make EGL and GLX calls from their own exit
// handlers (piglit tears its context down in one), which may run after
// this library's static objects are gone.
std::vector<std::unique_ptr<Display>>& registry() {
  static auto* displays = new std::vector<std::unique_ptr<Display>>;
  return *displays;
}

}  // namespace

std::mutex& api_mutex() {
  static std::mutex mu;
  return mu;
}

CurrentState& current_state() { return per_thread<CurrentState>(); }

Display* get_display(EGLenum platform, void* native) {
  for (auto& d : registry())
    if (d->platform() == platform && d->native() == native) return d.get();
  registry().push_back(std::make_unique<Display>(platform, native));
  return registry().back().get();
}

Display* find_display(EGLDisplay handle) {
  for (auto& d : registry())
    if (d.get() == handle) return d.get();
  return nullptr;
}

Display* initialized_display(EGLDisplay handle) {
  Display* d = find_display(handle);
  if (!d) return fail<Display*>(EGL_BAD_DISPLAY, nullptr);
  if (!d->initialized()) return fail<Display*>(EGL_NOT_INITIALIZED, nullptr);
  return d;
}

Display::Display(EGLenum platform, void* native) : platform_(platform), native_(native) {}

Display::~Display() {
  if (owns_x_display_ && x_display_) XCloseDisplay(x_display_);
}

bool Display::open_x_display() {
  if (platform_ != EGL_PLATFORM_X11_KHR) return true;
  if (x_display_) return true;
  if (native_) {
    x_display_ = static_cast<::Display*>(native_);
    return true;
  }
  x_display_ = XOpenDisplay(nullptr);
  owns_x_display_ = x_display_ != nullptr;
  return x_display_ != nullptr;
}

std::vector<VisualInfo> true_color_visuals(::Display* x_display) {
  std::vector<VisualInfo> out;
  if (!x_display) return out;
  XVisualInfo templ{};
  templ.screen = DefaultScreen(x_display);
  templ.c_class = TrueColor;
  int count = 0;
  XVisualInfo* infos =
      XGetVisualInfo(x_display, VisualScreenMask | VisualClassMask, &templ, &count);
  // The screen's default visual first, so configs carry the visual windows
  // are usually created with.
  const VisualID default_id = XVisualIDFromVisual(DefaultVisual(x_display, templ.screen));
  for (int i = 0; i < count; ++i) {
    const XVisualInfo& v = infos[i];
    if (v.depth != 24 && v.depth != 32) continue;
    if (v.red_mask != 0xff0000 || v.green_mask != 0xff00 || v.blue_mask != 0xff) continue;
    VisualInfo info{static_cast<EGLint>(v.visualid), v.depth, v.c_class};
    if (v.visualid == default_id)
      out.insert(out.begin(), info);
    else
      out.push_back(info);
  }
  if (infos) XFree(infos);
  return out;
}

EGLint Display::initialize() {
  if (initialized_) return EGL_SUCCESS;
  if (!open_x_display()) return EGL_NOT_INITIALIZED;
  connection_ = Connection::shared();
  if (!connection_) return EGL_NOT_INITIALIZED;
  const auto visuals = true_color_visuals(x_display_);
  RenderCaps caps = render_caps(connection_->host().reply);
  caps.max_pbuffer_side = static_cast<int>(connection_->host().max_pbuffer_side);
  configs_ = build_configs(caps, visuals);
  initialized_ = true;
  return EGL_SUCCESS;
}

void Display::terminate() {
  // Objects current on some thread live on until released (EGL 1.5 3.2);
  // their handles become invalid here either way.
  surfaces.clear();
  contexts.clear();
  syncs.clear();
  initialized_ = false;
}

const Config* Display::find_config(EGLConfig handle) const {
  for (const auto& c : configs_)
    if (&c == handle) return &c;
  return nullptr;
}

std::shared_ptr<Surface> Display::find_surface(EGLSurface handle) const {
  return find_handle(surfaces, handle);
}

std::shared_ptr<Context> Display::find_context(EGLContext handle) const {
  return find_handle(contexts, handle);
}

Sync* Display::find_sync(EGLSync handle) const {
  auto it = syncs.find(handle);
  return it == syncs.end() ? nullptr : it->second.get();
}

}  // namespace icd
