#include "glx/objects.h"

#include <X11/Xlibint.h>
#include <X11/Xutil.h>

#include "conn/per_thread.h"
#include "glx/protocol.h"

namespace icd::glx {
namespace {

// Never destroyed: programs make EGL and GLX calls from their own exit
// handlers (piglit tears its context down in one), which may run after
// this library's static objects are gone.
std::vector<std::unique_ptr<GlxDisplay>>& registry() {
  static auto* displays = new std::vector<std::unique_ptr<GlxDisplay>>;
  return *displays;
}

}  // namespace

std::mutex& api_mutex() {
  static std::mutex mu;
  return mu;
}

Current& current() { return per_thread<Current>(); }

GlxDisplay* get_display(::Display* dpy) {
  if (!dpy) return nullptr;
  for (auto& d : registry())
    if (d->x_display() == dpy) return d.get();
  registry().push_back(std::make_unique<GlxDisplay>(dpy));
  return registry().back().get();
}

const FbConfig* requested_config(GlxDisplay* d, ::Display* dpy, GLXFBConfig config, int minor_opcode) {
  const FbConfig* c = d ? d->find_config(config) : nullptr;
  if (!c) send_error(dpy, GLXBadFBConfig, 0, minor_opcode, false);
  return c;
}

bool no_attributes(::Display* dpy, const int* attribs, int minor_opcode) {
  if (!attribs || attribs[0] == None) return true;
  send_error(dpy, BadValue, static_cast<XID>(attribs[0]), minor_opcode, true);
  return false;
}

GlxDisplay::GlxDisplay(::Display* dpy) : dpy_(dpy), owner_(EGL_PLATFORM_X11_KHR, dpy) {
  configs_ = build_fbconfigs(true_color_visuals(dpy));
  int event_base = 0;
  if (!XQueryExtension(dpy, "GLX", &glx_opcode_, &event_base, &glx_error_base_)) {
    glx_opcode_ = 0;
    glx_error_base_ = 0;
  }
}

bool GlxDisplay::connect() {
  if (!connection_) connection_ = Connection::shared();
  return connection_ && !connection_->lost();
}

RenderCaps GlxDisplay::caps() const {
  if (!connection_) return {};
  return render_caps(connection_->host().reply);
}

const FbConfig* GlxDisplay::find_config(GLXFBConfig handle) const {
  for (const auto& c : configs_)
    if (handle_of(&c) == handle) return &c;
  return nullptr;
}

const FbConfig* GlxDisplay::config_for_visual(VisualID visual) const {
  for (const auto& c : configs_)
    if (c.visual == visual) return &c;
  return nullptr;
}

void GlxDisplay::remember_chosen(const XVisualInfo* info, const FbConfig* config) { chosen_[info] = config; }

const FbConfig* GlxDisplay::config_for(const XVisualInfo* info) const {
  auto it = chosen_.find(info);
  // The same address may hold another visual since: it must still match.
  if (it != chosen_.end() && it->second->visual == info->visualid) return it->second;
  return config_for_visual(info->visualid);
}

std::shared_ptr<GlxDrawable> GlxDisplay::find_drawable(GLXDrawable xid) const {
  return find_handle(drawables, xid);
}

std::shared_ptr<GlxContext> GlxDisplay::find_context(GLXContext handle) const {
  return find_handle(contexts, handle);
}

// A window bound with glXMakeCurrent has no destroy call: its drawable goes
// once no context holds it and the window is gone, as Mesa's does, so that a
// program cycling through windows does not pile up host surfaces.
void GlxDisplay::forget_gone_windows() {
  for (auto it = drawables.begin(); it != drawables.end();) {
    const auto& drawable = it->second;
    const bool unbound = drawable.use_count() == 1;  // held by this table alone
    if (drawable->kind == GlxDrawable::Kind::kWindow && unbound && !drawable->surface->window_exists())
      it = drawables.erase(it);
    else
      ++it;
  }
}

std::shared_ptr<GlxDrawable> GlxDisplay::drawable_for(GLXDrawable xid, const FbConfig* config) {
  if (auto d = find_drawable(xid)) return d;
  if (!config || !connect()) return nullptr;
  auto presenter = Presenter::open(dpy_, xid);  // the program's requests reach the server first
  forget_gone_windows();
  int width = 0, height = 0;
  if (!presenter->ok() || !presenter->window_size(&width, &height)) return nullptr;
  auto d = std::make_shared<GlxDrawable>();
  d->kind = GlxDrawable::Kind::kWindow;
  d->xid = xid;
  d->config = config;
  d->surface = std::make_shared<Surface>(connection_, config->color, EGL_WINDOW_BIT, width, height,
                                         config->double_buffer);
  d->surface->attach_window(static_cast<Window>(xid), std::move(presenter));
  drawables[xid] = d;
  return d;
}

void send_error(::Display* dpy, int code, XID resource, int minor_opcode, bool core) {
  GlxDisplay* d = get_display(dpy);
  xError err{};
  err.type = X_Error;
  err.errorCode = static_cast<CARD8>(core ? code : d->glx_error_base() + code);
  err.resourceID = static_cast<CARD32>(resource);
  err.minorCode = static_cast<CARD16>(minor_opcode);
  err.majorCode = static_cast<CARD8>(d->glx_opcode());
  LockDisplay(dpy);
  err.sequenceNumber = static_cast<CARD16>(dpy->request);
  _XError(dpy, &err);
  UnlockDisplay(dpy);
}

}  // namespace icd::glx
