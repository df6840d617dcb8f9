// Contexts, binding them to threads and surfaces, and waiting for them.
#include "egl/objects.h"

#include "egl/api.h"
#include "egl/context_attribs.h"
#include "egl/error.h"

namespace icd::egl {
namespace {

thread_local EGLenum t_api = EGL_OPENGL_ES_API;

EGLenum current_api() {
  if (const auto* exports = glvnd_exports()) return exports->getCurrentApi();
  return t_api;
}

// Releases the calling thread's current context, if any.
void release_current() {
  auto& cur = current_state();
  if (!cur.context) return;
  cur.context->stream().flush();
  if (cur.context->draw) cur.context->draw->bound_context = nullptr;
  if (cur.context->read) cur.context->read->bound_context = nullptr;
  clear_current(cur);
}

// Whether a surface of config `s` can be used with a context of config `c`.
bool compatible(const Config* c, const Config& s) {
  if (!c) return true;  // EGL_KHR_no_config_context
  return c->red == s.red && c->green == s.green && c->blue == s.blue && c->alpha == s.alpha &&
         c->depth == s.depth && c->stencil == s.stencil && c->samples == s.samples;
}

// Round trip on the current context: everything it sent has run on the host.
EGLBoolean finish_current() {
  auto& cur = current_state();
  if (!cur.context) return ok();
  ContextStream& stream = cur.context->stream();
  if (stream.lost()) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
  size_t at = stream.writer().begin(static_cast<uint32_t>(wire::ControlOp::kSync));
  stream.writer().end(at);
  if (!stream.roundtrip()) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
  return ok();
}

}  // namespace

EGLBoolean BindAPI(EGLenum api) {
  if (api != EGL_OPENGL_ES_API && api != EGL_OPENGL_API) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  t_api = api;
  return ok();
}

EGLContext CreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share, const EGLint* attribs) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_NO_CONTEXT;
  const Config* c = nullptr;
  if (config != EGL_NO_CONFIG_KHR) {
    c = d->find_config(config);
    if (!c) return fail(EGL_BAD_CONFIG, EGL_NO_CONTEXT);
  }
  std::shared_ptr<Context> shared;
  if (share != EGL_NO_CONTEXT) {
    shared = d->find_context(share);
    if (!shared) return fail(EGL_BAD_CONTEXT, EGL_NO_CONTEXT);
  }
  const EGLenum api = current_api();
  auto request = parse_context_attribs(api, attribs);
  if (!request.ok()) return fail(request.error, EGL_NO_CONTEXT);
  if (EGLint e = check_context_request(request, c, render_caps(d->connection()->host().reply));
      e != EGL_SUCCESS)
    return fail(e, EGL_NO_CONTEXT);
  if (shared && shared->api() != api) return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);

  auto& conn = *d->connection();
  const uint32_t id = conn.new_id();
  wire::CreateContext msg{id,
                          shared ? shared->id() : 0,
                          static_cast<uint32_t>(api == EGL_OPENGL_ES_API ? wire::Api::kGles : wire::Api::kGl),
                          static_cast<uint32_t>(request.major),
                          static_cast<uint32_t>(request.minor),
                          static_cast<uint32_t>(request.profile),
                          request.flags};
  switch (make_on_host(conn, msg)) {
    case HostAnswer::kMade: break;
    case HostAnswer::kRefused: return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
    case HostAnswer::kNoAnswer: return fail(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
  }

  auto ctx = std::make_shared<Context>(*d, d->connection(), msg, c);
  // Names are allocated guest-side, so a share group allocates from one pool.
  if (shared) ctx->stream().gl_state().share_names_with(shared->stream().gl_state());
  EGLContext handle = ctx.get();
  d->contexts[handle] = std::move(ctx);
  set_error(EGL_SUCCESS);
  return handle;
}

EGLBoolean DestroyContext(EGLDisplay dpy, EGLContext ctx) {
  return destroy_handle(dpy, &Display::contexts, ctx, EGL_BAD_CONTEXT);
}

EGLBoolean MakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx) {
  std::lock_guard lock(api_mutex());
  Display* d = find_display(dpy);
  if (!d) return fail(EGL_BAD_DISPLAY, EGL_FALSE);
  const bool releasing = ctx == EGL_NO_CONTEXT;
  if (releasing) {
    if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) return fail(EGL_BAD_MATCH, EGL_FALSE);
    release_current();  // allowed on an uninitialized display too
    return ok();
  }
  if (!d->initialized()) return fail(EGL_NOT_INITIALIZED, EGL_FALSE);
  auto context = d->find_context(ctx);
  if (!context) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
  if ((draw == EGL_NO_SURFACE) != (read == EGL_NO_SURFACE)) return fail(EGL_BAD_MATCH, EGL_FALSE);
  std::shared_ptr<Surface> draw_s, read_s;
  if (draw != EGL_NO_SURFACE) {
    draw_s = d->find_surface(draw);
    read_s = d->find_surface(read);
    if (!draw_s || !read_s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
    if (!compatible(context->config(), draw_s->config()) || !compatible(context->config(), read_s->config()))
      return fail(EGL_BAD_MATCH, EGL_FALSE);
  }
  auto& cur = current_state();
  // A context or surface may be current on one thread only (EGL 1.5 3.7.3).
  if (context->current && cur.context != context) return fail(EGL_BAD_ACCESS, EGL_FALSE);
  for (const auto& s : {draw_s, read_s})
    if (s && s->bound_context && s->bound_context != context.get() &&
        !(cur.context && s->bound_context == cur.context.get()))
      return fail(EGL_BAD_ACCESS, EGL_FALSE);
  if (context->stream().lost()) return fail(EGL_CONTEXT_LOST, EGL_FALSE);

  release_current();
  context->draw = draw_s;
  context->read = read_s;
  if (draw_s) draw_s->bound_context = context.get();
  if (read_s) read_s->bound_context = context.get();
  // The window may have changed size since the surface was made.
  if (draw_s) draw_s->follow_window_size(context->stream().writer());
  context->stream().bind(draw_s ? draw_s->id() : 0, read_s ? read_s->id() : 0);
  context->current = true;
  cur.context = context;
  cur.display = d;
  set_current_stream(&context->stream());
  return ok();
}

EGLBoolean QueryContext(EGLDisplay dpy, EGLContext ctx, EGLint attribute, EGLint* value) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  auto c = d->find_context(ctx);
  if (!c) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
  if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  switch (attribute) {
    case EGL_CONFIG_ID: *value = c->config() ? c->config()->config_id : 0; break;
    case EGL_CONTEXT_CLIENT_TYPE: *value = static_cast<EGLint>(c->api()); break;
    case EGL_CONTEXT_CLIENT_VERSION: *value = c->major(); break;
    case EGL_RENDER_BUFFER: *value = c->draw ? EGL_BACK_BUFFER : EGL_NONE; break;
    default: return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  return ok();
}

EGLBoolean WaitClient() {
  std::lock_guard lock(api_mutex());
  return finish_current();
}

EGLBoolean WaitGL() {
  std::lock_guard lock(api_mutex());
  return finish_current();
}

EGLBoolean WaitNative(EGLint engine) {
  std::lock_guard lock(api_mutex());
  if (engine != EGL_CORE_NATIVE_ENGINE) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  auto& cur = current_state();
  if (cur.display && cur.display->x_display()) XSync(cur.display->x_display(), False);
  return ok();
}

EGLBoolean ReleaseThread() {
  std::lock_guard lock(api_mutex());
  release_current();
  t_api = EGL_OPENGL_ES_API;
  return ok();
}

}  // namespace icd::egl
