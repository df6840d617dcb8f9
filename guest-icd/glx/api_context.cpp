// Contexts: creating them on the host, binding them to threads and
// drawables, and waiting for them.
#include "glx/objects.h"

#include "glx/protocol.h"
#include <X11/Xutil.h>

#include "glx/api.h"
#include "glx/context_attribs.h"

namespace icd::glx {
namespace {

// Releases the calling thread's current context, if any.
Surface* single_buffered_window(const GlxDrawable* d) {
  const bool window = d && (d->kind == GlxDrawable::Kind::kWindow || d->kind == GlxDrawable::Kind::kGlxWindow);
  return window && d->config && !d->config->double_buffer ? d->surface.get() : nullptr;
}

void follow_at_flush(Stream& stream, void* surface) {
  static_cast<Surface*>(surface)->follow_window_size(stream.writer());
}

void release_current() {
  auto& cur = current();
  if (!cur.context) return;
  cur.context->context->stream().flush();
  cur.context->context->stream().set_at_flush(nullptr, nullptr);
  clear_current(cur);
}

// Asks the host for a context; null (with the X error sent) on failure.
GLXContext create(::Display* dpy, GlxDisplay& d, const FbConfig* config, GLXContext share,
                  ContextRequest request, int minor_opcode) {
  std::shared_ptr<GlxContext> shared;
  if (share) {
    shared = d.find_context(share);
    if (!shared) {
      send_error(dpy, GLXBadContext, 0, minor_opcode, false);
      return nullptr;
    }
  }
  if (!d.connect()) {
    send_error(dpy, BadAlloc, 0, minor_opcode, true);
    return nullptr;
  }
  const HostContext host = host_context_for(request, d.caps());
  if (request.error) {
    send_error(dpy, request.error, 0, minor_opcode, !request.glx_error);
    return nullptr;
  }
  Connection& conn = *d.connection();
  const uint32_t id = conn.new_id();
  const auto profile = host.gles ? wire::Profile::kNone
                     : host.core ? wire::Profile::kCore
                                 : wire::Profile::kCompatibility;
  const auto api = host.gles ? wire::Api::kGles : wire::Api::kGl;
  const uint32_t flags =
      ((request.flags & GLX_CONTEXT_DEBUG_BIT_ARB) ? wire::kContextDebug : 0u) |
      ((request.flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB) ? wire::kContextForwardCompatible : 0u) |
      (request.release_none ? wire::kContextReleaseNone : 0u);
  wire::CreateContext msg{id, shared ? shared->context->id() : 0, static_cast<uint32_t>(api),
                          static_cast<uint32_t>(host.major), static_cast<uint32_t>(host.minor),
                          static_cast<uint32_t>(profile), flags};
  if (make_on_host(conn, msg) != HostAnswer::kMade) {
    send_error(dpy, BadAlloc, 0, minor_opcode, true);
    return nullptr;
  }
  auto ctx = std::make_shared<GlxContext>();
  ctx->context = std::make_shared<Context>(d.owner(), d.connection(), msg, config ? &config->color : nullptr);
  // Names are allocated guest-side, so a share group allocates from one pool.
  if (shared) ctx->context->stream().gl_state().share_names_with(shared->context->stream().gl_state());
  ctx->config = config;
  ctx->screen = DefaultScreen(dpy);
  ctx->render_type = request.render_type;
  ctx->major = host.major;
  ctx->minor = host.minor;
  ctx->profile_mask = host.gles ? GLX_CONTEXT_ES_PROFILE_BIT_EXT
                     : host.core ? GLX_CONTEXT_CORE_PROFILE_BIT_ARB
                                 : GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB;
  auto handle = reinterpret_cast<GLXContext>(ctx.get());
  d.contexts[handle] = std::move(ctx);
  return handle;
}

ContextRequest legacy_request() {
  ContextRequest r;
  r.profile_mask = GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB;
  return r;
}

// The config of an X window's visual, for windows bound by a context
// made without a config.
const FbConfig* window_config(GlxDisplay& d, GLXDrawable xid) {
  XWindowAttributes attrs{};
  if (!XGetWindowAttributes(d.x_display(), static_cast<Window>(xid), &attrs) || !attrs.visual)
    return nullptr;
  return d.config_for_visual(XVisualIDFromVisual(attrs.visual));
}

bool compatible(const FbConfig* ctx, const FbConfig& drawable) {
  if (!ctx) return true;
  const Config& a = ctx->color;
  const Config& b = drawable.color;
  return a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha &&
         a.depth == b.depth && a.stencil == b.stencil && a.samples == b.samples;
}

std::shared_ptr<GlxDrawable> lookup_drawable(GlxDisplay& d, GLXDrawable xid, const GlxContext& ctx) {
  if (auto known = d.find_drawable(xid)) return known;
  return d.drawable_for(xid, ctx.config ? ctx.config : window_config(d, xid));
}

}  // namespace

GLXContext CreateContext(::Display* dpy, XVisualInfo* visual, GLXContext share, Bool) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  if (!d || !visual) {
    send_error(dpy, BadValue, 0, X_GLXCreateContext, true);
    return nullptr;
  }
  const FbConfig* c = d->config_for(visual);
  if (!c) {
    send_error(dpy, BadValue, visual->visualid, X_GLXCreateContext, true);
    return nullptr;
  }
  return create(dpy, *d, c, share, legacy_request(), X_GLXCreateContext);
}

GLXContext CreateNewContext(::Display* dpy, GLXFBConfig config, int render_type, GLXContext share, Bool) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  const FbConfig* c = requested_config(d, dpy, config, X_GLXCreateNewContext);
  if (!c) return nullptr;
  if (render_type != GLX_RGBA_TYPE) {
    send_error(dpy, BadMatch, 0, X_GLXCreateNewContext, true);
    return nullptr;
  }
  return create(dpy, *d, c, share, legacy_request(), X_GLXCreateNewContext);
}

GLXContext CreateContextAttribsARB(::Display* dpy, GLXFBConfig config, GLXContext share, Bool,
                                   const int* attribs) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  if (!d) return nullptr;
  const FbConfig* c = nullptr;
  if (config) {
    c = d->find_config(config);
    if (!c) {
      send_error(dpy, GLXBadFBConfig, 0, X_GLXCreateContextAttribsARB, false);
      return nullptr;
    }
  }
  ContextRequest request = parse_context_attribs(attribs);
  if (request.error) {
    send_error(dpy, request.error, 0, X_GLXCreateContextAttribsARB, !request.glx_error);
    return nullptr;
  }
  return create(dpy, *d, c, share, request, X_GLXCreateContextAttribsARB);
}

namespace {

// The context `handle` names: a live one, or the calling thread's current
// context destroyed while current, which lives on until released (GLX 1.4
// 3.3.7): destroying it again or making it current again is no error.
std::shared_ptr<GlxContext> find_usable(const GlxDisplay& d, GLXContext handle) {
  if (auto ctx = d.find_context(handle)) return ctx;
  const Current& cur = current();
  const bool current_destroyed = cur.display == &d && cur.context &&
                                 reinterpret_cast<GLXContext>(cur.context.get()) == handle;
  return current_destroyed ? cur.context : nullptr;
}

}  // namespace

void DestroyContext(::Display* dpy, GLXContext ctx) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  // A context current on some thread lives on until released.
  if (!d || (!d->contexts.erase(ctx) && !find_usable(*d, ctx))) {
    send_error(dpy, GLXBadContext, 0, X_GLXDestroyContext, false);
  }
}

Bool MakeContextCurrent(::Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext handle) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  if (!d) return False;
  if (!handle) {
    if (draw != None || read != None) {
      send_error(dpy, BadMatch, draw, X_GLXMakeContextCurrent, true);
      return False;
    }
    release_current();
    return True;
  }
  auto ctx = find_usable(*d, handle);
  if (!ctx) {
    send_error(dpy, GLXBadContext, 0, X_GLXMakeContextCurrent, false);
    return False;
  }
  if ((draw == None) != (read == None)) {
    send_error(dpy, BadMatch, draw, X_GLXMakeContextCurrent, true);
    return False;
  }
  std::shared_ptr<GlxDrawable> draw_d, read_d;
  if (draw != None) {
    draw_d = lookup_drawable(*d, draw, *ctx);
    read_d = read == draw ? draw_d : lookup_drawable(*d, read, *ctx);
    if (!draw_d || !read_d) {
      send_error(dpy, GLXBadDrawable, draw_d ? read : draw, X_GLXMakeContextCurrent, false);
      return False;
    }
    if (!compatible(ctx->config, *draw_d->config) || !compatible(ctx->config, *read_d->config)) {
      send_error(dpy, BadMatch, draw, X_GLXMakeContextCurrent, true);
      return False;
    }
  }
  auto& cur = current();
  // A context may be current on one thread only (GLX 1.4 3.3.7).
  if (ctx->current && cur.context != ctx) {
    send_error(dpy, BadAccess, 0, X_GLXMakeContextCurrent, true);
    return False;
  }
  release_current();
  ContextStream& stream = ctx->context->stream();
  // The window may have changed size since the surface was made.
  if (draw_d) draw_d->surface->follow_window_size(stream.writer());
  stream.bind(draw_d ? draw_d->surface->id() : 0, read_d ? read_d->surface->id() : 0);
  // A single-buffered window has no swap: the flushes that show its frames
  // take its size changes (natively the driver asks the window's size as it
  // draws).
  Surface* single = single_buffered_window(draw_d.get());
  stream.set_at_flush(single ? follow_at_flush : nullptr, single);
  ctx->draw = draw_d;
  ctx->read = read_d;
  ctx->current = true;
  cur.context = ctx;
  cur.display = d;
  set_current_stream(&stream);
  return True;
}

Bool MakeCurrent(::Display* dpy, GLXDrawable drawable, GLXContext ctx) {
  return MakeContextCurrent(dpy, drawable, drawable, ctx);
}

void CopyContext(::Display* dpy, GLXContext, GLXContext, unsigned long) {
  // State lives on the host and is not copied between contexts.
  send_error(dpy, BadMatch, 0, X_GLXCopyContext, true);
}

int QueryContext(::Display* dpy, GLXContext handle, int attribute, int* value) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  auto ctx = d ? d->find_context(handle) : nullptr;
  if (!ctx) return GLXBadContext;
  if (!value) return GLX_BAD_VALUE;
  switch (attribute) {
    case GLX_FBCONFIG_ID: *value = ctx->config ? ctx->config->id : 0; break;
    case GLX_RENDER_TYPE: *value = ctx->render_type; break;
    case GLX_SCREEN: *value = ctx->screen; break;
    default: return GLX_BAD_ATTRIBUTE;
  }
  return Success;
}

Bool IsDirect(::Display* dpy, GLXContext handle) {
  std::lock_guard lock(api_mutex());
  GlxDisplay* d = get_display(dpy);
  if (!d || !d->find_context(handle)) {
    send_error(dpy, GLXBadContext, 0, X_GLXIsDirect, false);
    return False;
  }
  return True;  // commands go to the renderer without passing the X server
}

void WaitGL() {
  std::lock_guard lock(api_mutex());
  auto& cur = current();
  if (!cur.context) return;
  ContextStream& stream = cur.context->context->stream();
  if (stream.lost()) return;
  size_t at = stream.writer().begin(static_cast<uint32_t>(wire::ControlOp::kSync));
  stream.writer().end(at);
  (void)stream.roundtrip();
}

void WaitX() {
  std::lock_guard lock(api_mutex());
  if (auto* d = current().display) XSync(d->x_display(), False);
}

}  // namespace icd::glx
