// GLX windows, pbuffers and pixmaps, their queries, glXSwapBuffers and swap
// control.
#include "glx/objects.h"

#include "glx/protocol.h"

#include <algorithm>

#include "glx/api.h"
#include "wire/gl_encode.h"

namespace icd::glx {
namespace {

// Swap intervals are recorded and reported; frames are paced by the host's
// readback, not by a vertical blank.
constexpr int kMaxSwapInterval = 1;

std::shared_ptr<GlxDrawable> find(::Display* dpy, GLXDrawable xid, int minor_opcode) {
  GlxDisplay* d = get_display(dpy);
  auto drawable = d ? d->find_drawable(xid) : nullptr;
  if (!drawable) send_error(dpy, GLXBadDrawable, xid, minor_opcode, false);
  return drawable;
}

void destroy(::Display* dpy, GLXDrawable xid, GlxDrawable::Kind kind, int error, int minor_opcode) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  auto drawable = d ? d->find_drawable(xid) : nullptr;
  if (!drawable || drawable->kind != kind) {
    send_error(dpy, error, xid, minor_opcode, false);
    return;
  }
  // A drawable current to some context lives on until released.
  d->drawables.erase(xid);
  if (kind != GlxDrawable::Kind::kGlxWindow) return;
  // A GLX window died with its X window (GLX 1.4 3.3.4.1): destroying it is
  // then an error. The program's requests (its XDestroyWindow) go first.
  XSync(dpy, False);
  if (!drawable->surface->window_exists()) send_error(dpy, error, xid, minor_opcode, false);
}

}  // namespace

GLXWindow CreateWindow(::Display* dpy, GLXFBConfig config, Window window, const int* attribs) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  const FbConfig* c = requested_config(d, dpy, config, X_GLXCreateWindow);
  if (!c || !no_attributes(dpy, attribs, X_GLXCreateWindow)) return None;
  if (!(c->drawable_types & GLX_WINDOW_BIT)) {
    send_error(dpy, BadMatch, window, X_GLXCreateWindow, true);
    return None;
  }
  for (const auto& [xid, drawable] : d->drawables)
    if (drawable->kind != GlxDrawable::Kind::kPbuffer && drawable->surface->window() == window) {
      send_error(dpy, BadAlloc, window, X_GLXCreateWindow, true);
      return None;
    }
  // The window's own XID names it: a later glXMakeCurrent on the window
  // finds the same drawable.
  auto drawable = d->drawable_for(window, c);
  if (!drawable) {
    send_error(dpy, BadWindow, window, X_GLXCreateWindow, true);
    return None;
  }
  drawable->kind = GlxDrawable::Kind::kGlxWindow;
  return window;
}

void DestroyWindow(::Display* dpy, GLXWindow window) {
  destroy(dpy, window, GlxDrawable::Kind::kGlxWindow, GLXBadWindow, X_GLXDestroyWindow);
}

GLXPbuffer CreatePbuffer(::Display* dpy, GLXFBConfig config, const int* attribs) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  const FbConfig* c = requested_config(d, dpy, config, X_GLXCreatePbuffer);
  if (!c) return None;
  int width = 0, height = 0;
  bool largest = false, preserved = true;
  for (const int* a = attribs; a && a[0] != None; a += 2) {
    switch (a[0]) {
      case GLX_PBUFFER_WIDTH: width = a[1]; break;
      case GLX_PBUFFER_HEIGHT: height = a[1]; break;
      case GLX_LARGEST_PBUFFER: largest = a[1] != 0; break;
      case GLX_PRESERVED_CONTENTS: preserved = a[1] != 0; break;
      default:
        send_error(dpy, BadValue, static_cast<XID>(a[0]), X_GLXCreatePbuffer, true);
        return None;
    }
  }
  if (width < 0 || height < 0) {
    send_error(dpy, BadValue, 0, X_GLXCreatePbuffer, true);
    return None;
  }
  if (width > kMaxPbufferSize || height > kMaxPbufferSize) {
    if (!largest) {
      send_error(dpy, BadAlloc, 0, X_GLXCreatePbuffer, true);
      return None;
    }
    width = std::min(width, kMaxPbufferSize);
    height = std::min(height, kMaxPbufferSize);
  }
  if (!(c->drawable_types & GLX_PBUFFER_BIT)) {
    send_error(dpy, BadMatch, 0, X_GLXCreatePbuffer, true);
    return None;
  }
  if (!d->connect()) {
    send_error(dpy, BadAlloc, 0, X_GLXCreatePbuffer, true);
    return None;
  }
  auto drawable = std::make_shared<GlxDrawable>();
  drawable->kind = GlxDrawable::Kind::kPbuffer;
  drawable->xid = XAllocID(dpy);
  drawable->config = c;
  drawable->preserved = preserved;
  drawable->surface = std::make_shared<Surface>(d->connection(), c->color, EGL_PBUFFER_BIT,
                                                width, height);
  drawable->surface->largest_pbuffer = largest;
  d->drawables[drawable->xid] = drawable;
  return drawable->xid;
}

void DestroyPbuffer(::Display* dpy, GLXPbuffer pbuffer) {
  destroy(dpy, pbuffer, GlxDrawable::Kind::kPbuffer, GLXBadPbuffer, X_GLXDestroyPbuffer);
}

namespace {

// A GLX pixmap of `config` on the X pixmap `pixmap`: a single-buffered host
// surface whose flushed frames a presenter puts into the pixmap (GLX 1.4
// 3.3.5). It has an XID of its own, as GLX gives it.
GLXPixmap create_pixmap(::Display* dpy, const FbConfig* c, Pixmap pixmap, int minor_opcode) {
  GlxDisplay* d = get_display(dpy);
  if (!(c->drawable_types & GLX_PIXMAP_BIT) || !d->connect()) {
    send_error(dpy, BadMatch, pixmap, minor_opcode, true);
    return None;
  }
  auto presenter = Presenter::open(dpy, pixmap);
  if (!presenter->found()) {
    send_error(dpy, BadPixmap, pixmap, minor_opcode, true);
    return None;
  }
  int width = 0, height = 0;
  if (presenter->depth() != c->visual_depth || !presenter->ok() || !presenter->window_size(&width, &height)) {
    send_error(dpy, BadMatch, pixmap, minor_opcode, true);
    return None;
  }
  auto drawable = std::make_shared<GlxDrawable>();
  drawable->kind = GlxDrawable::Kind::kPixmap;
  drawable->xid = XAllocID(dpy);
  drawable->config = c;
  drawable->surface = std::make_shared<Surface>(d->connection(), c->color, EGL_PIXMAP_BIT, width, height);
  drawable->surface->attach_window(pixmap, std::move(presenter));
  d->drawables[drawable->xid] = drawable;
  return drawable->xid;
}

}  // namespace

GLXPixmap CreatePixmap(::Display* dpy, GLXFBConfig config, Pixmap pixmap, const int* attribs) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  const FbConfig* c = requested_config(d, dpy, config, X_GLXCreatePixmap);
  if (!c || !no_attributes(dpy, attribs, X_GLXCreatePixmap)) return None;
  return create_pixmap(dpy, c, pixmap, X_GLXCreatePixmap);
}

void DestroyPixmap(::Display* dpy, GLXPixmap pixmap) {
  destroy(dpy, pixmap, GlxDrawable::Kind::kPixmap, GLXBadPixmap, X_GLXDestroyPixmap);
}

GLXPixmap CreateGLXPixmap(::Display* dpy, XVisualInfo* visual, Pixmap pixmap) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  const FbConfig* c = d && visual ? d->config_for(visual) : nullptr;
  if (!c) {
    send_error(dpy, BadValue, visual ? visual->visualid : 0, X_GLXCreateGLXPixmap, true);
    return None;
  }
  return create_pixmap(dpy, c, pixmap, X_GLXCreateGLXPixmap);
}

void DestroyGLXPixmap(::Display* dpy, GLXPixmap pixmap) {
  destroy(dpy, pixmap, GlxDrawable::Kind::kPixmap, GLXBadPixmap, X_GLXDestroyGLXPixmap);
}

void QueryDrawable(::Display* dpy, GLXDrawable xid, int attribute, unsigned int* value) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  if (!d) return;
  auto drawable = d->find_drawable(xid);
  // A plain window bound with glXMakeCurrent has no GLX drawable of its own
  // until then; describe it by its visual's config.
  if (!drawable && xid != None) {
    const auto& cur = current();
    const FbConfig* config = cur.context ? cur.context->config : nullptr;
    drawable = d->drawable_for(xid, config);
  }
  if (!drawable) {
    send_error(dpy, GLXBadDrawable, xid, X_GLXGetDrawableAttributes, false);
    return;
  }
  if (!value) return;
  Surface& s = *drawable->surface;
  // A window's size as the server has it now (a program asks it to size its
  // read-backs after resizing), without taking the change from the next
  // glXMakeCurrent or swap, which send it to the host.
  int width = s.width(), height = s.height();
  if (drawable->kind != GlxDrawable::Kind::kPbuffer) s.current_window_size(&width, &height);
  switch (attribute) {
    case GLX_WIDTH: *value = static_cast<unsigned>(width); break;
    case GLX_HEIGHT: *value = static_cast<unsigned>(height); break;
    case GLX_PRESERVED_CONTENTS: *value = drawable->preserved ? True : False; break;
    case GLX_LARGEST_PBUFFER: *value = s.largest_pbuffer ? True : False; break;
    case GLX_FBCONFIG_ID: *value = static_cast<unsigned>(drawable->config->id); break;
    case GLX_EVENT_MASK: *value = static_cast<unsigned>(drawable->event_mask); break;
    case GLX_SWAP_INTERVAL_EXT: *value = static_cast<unsigned>(s.swap_interval); break;
    case GLX_MAX_SWAP_INTERVAL_EXT: *value = kMaxSwapInterval; break;
    default: send_error(dpy, BadValue, static_cast<XID>(attribute), X_GLXGetDrawableAttributes, true);
  }
}

void SelectEvent(::Display* dpy, GLXDrawable xid, unsigned long mask) {
  std::lock_guard lock(api_mutex());
  if (auto drawable = find(dpy, xid, X_GLXChangeDrawableAttributes)) drawable->event_mask = mask;
}

void GetSelectedEvent(::Display* dpy, GLXDrawable xid, unsigned long* mask) {
  std::lock_guard lock(api_mutex());
  if (auto drawable = find(dpy, xid, X_GLXGetDrawableAttributes); drawable && mask)
    *mask = drawable->event_mask;
}

void SwapBuffers(::Display* dpy, GLXDrawable xid) {
  std::shared_ptr<GlxContext> ctx;
  std::shared_ptr<GlxDrawable> drawable;
  {
    std::lock_guard lock(api_mutex());
    drawable = find(dpy, xid, X_GLXSwapBuffers);
    if (!drawable) return;
    ctx = current().context;
  }
  // Only the calling thread's current drawable has commands to finish;
  // pbuffers have no front buffer to show.
  if (!ctx || ctx->draw != drawable || drawable->kind == GlxDrawable::Kind::kPbuffer) return;
  // A pixmap or a single-buffered window has nothing to swap (GLX 1.4
  // section 3.3.11): the implied flush shows what was drawn.
  if (drawable->kind == GlxDrawable::Kind::kPixmap || (drawable->config && !drawable->config->double_buffer)) {
    ContextStream& stream = ctx->context->stream();
    wire::encode_glFlush(stream.writer());
    stream.run_at_flush();
    stream.flush();
    return;
  }
  if (!drawable->surface->swap(ctx->context->stream()))
    send_error(dpy, GLXBadCurrentWindow, xid, X_GLXSwapBuffers, false);
}

void SwapIntervalEXT(::Display* dpy, GLXDrawable xid, int interval) {
  std::lock_guard lock(api_mutex());
  if (interval < 0) {
    send_error(dpy, BadValue, static_cast<XID>(interval), X_GLXChangeDrawableAttributes, true);
    return;
  }
  if (auto drawable = find(dpy, xid, X_GLXChangeDrawableAttributes))
    drawable->surface->swap_interval = std::min(interval, kMaxSwapInterval);
}

int SwapIntervalMESA(unsigned int interval) {
  std::lock_guard lock(api_mutex());
  const auto& cur = current();
  if (!cur.context || !cur.context->draw) return GLX_BAD_CONTEXT;
  cur.context->draw->surface->swap_interval = static_cast<int>(std::min<unsigned>(interval, kMaxSwapInterval));
  return 0;
}

int GetSwapIntervalMESA() {
  std::lock_guard lock(api_mutex());
  const auto& cur = current();
  return cur.context && cur.context->draw ? cur.context->draw->surface->swap_interval : 0;
}

int SwapIntervalSGI(int interval) {
  if (interval <= 0) return GLX_BAD_VALUE;
  return SwapIntervalMESA(static_cast<unsigned>(interval));
}

}  // namespace icd::glx
