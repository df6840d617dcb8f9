// Window and pbuffer surfaces, their queries and eglSwapBuffers.
#include "egl/objects.h"

#include "egl/api.h"
#include "egl/error.h"

namespace icd::egl {
namespace {

struct Target {
  Display* display = nullptr;
  const Config* config = nullptr;
};

Target display_and_config(EGLDisplay dpy, EGLConfig config) {
  Display* d = initialized_display(dpy);
  if (!d) return Target{};
  const Config* c = d->find_config(config);
  if (!c) return fail(EGL_BAD_CONFIG, Target{});
  return Target{d, c};
}

// Attributes shared by window, pixmap and pbuffer surfaces; false on a bad
// one. sRGB surfaces need a host that makes them (EGL_KHR_gl_colorspace).
bool common_surface_attrib(const Display& d, EGLint attribute, EGLint value, EGLint* error, EGLint* colorspace) {
  switch (attribute) {
    case EGL_GL_COLORSPACE:
      if (value == EGL_GL_COLORSPACE_LINEAR || (value == EGL_GL_COLORSPACE_SRGB && d.offers_srgb())) {
        *colorspace = value;
        return true;
      }
      *error = value == EGL_GL_COLORSPACE_SRGB ? EGL_BAD_MATCH : EGL_BAD_ATTRIBUTE;
      return false;
    case EGL_VG_ALPHA_FORMAT:
    case EGL_VG_COLORSPACE:
      return true;  // OpenVG is not offered; the values do not matter
    default:
      *error = EGL_BAD_ATTRIBUTE;
      return false;
  }
}

// A window or pixmap surface (`type`), drawn into `drawable` by a presenter.
template <typename Attrib>
EGLSurface create_drawable(EGLDisplay dpy, EGLConfig config, Drawable drawable, const Attrib* attribs,
                           EGLint type) {
  std::lock_guard lock(api_mutex());
  Target t = display_and_config(dpy, config);
  if (!t.display) return EGL_NO_SURFACE;
  const bool window = type == EGL_WINDOW_BIT;
  const EGLint bad_native = window ? EGL_BAD_NATIVE_WINDOW : EGL_BAD_NATIVE_PIXMAP;
  EGLint colorspace = EGL_GL_COLORSPACE_LINEAR;
  for (const Attrib* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    const EGLint attribute = static_cast<EGLint>(a[0]);
    const EGLint value = static_cast<EGLint>(a[1]);
    if (window && attribute == EGL_RENDER_BUFFER) {
      if (value != EGL_BACK_BUFFER && value != EGL_SINGLE_BUFFER)
        return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
      continue;  // single-buffered requests get a back buffer (EGL 1.5 3.5.1 allows it)
    }
    EGLint error = EGL_SUCCESS;
    if (!common_surface_attrib(*t.display, attribute, value, &error, &colorspace)) return fail(error, EGL_NO_SURFACE);
  }
  if (!(t.config->surface_type & type)) return fail(EGL_BAD_MATCH, EGL_NO_SURFACE);
  ::Display* x = t.display->x_display();
  if (!x || !drawable) return fail(bad_native, EGL_NO_SURFACE);
  for (const auto& [handle, s] : t.display->surfaces)
    if (s->window() == drawable) return fail(EGL_BAD_ALLOC, EGL_NO_SURFACE);
  auto presenter = Presenter::open(x, drawable);
  if (!presenter->found()) return fail(bad_native, EGL_NO_SURFACE);
  // A pixmap's pixels must be the config's (EGL 1.5 section 3.5.4).
  if (!window && presenter->depth() != t.config->visual_depth) return fail(EGL_BAD_MATCH, EGL_NO_SURFACE);
  int width = 0, height = 0;
  if (!presenter->ok() || !presenter->window_size(&width, &height)) return fail(bad_native, EGL_NO_SURFACE);

  auto surface = std::make_shared<Surface>(t.display->connection(), *t.config, type, width, height, true, colorspace);
  surface->attach_window(drawable, std::move(presenter));
  EGLSurface handle = surface.get();
  t.display->surfaces[handle] = std::move(surface);
  set_error(EGL_SUCCESS);
  return handle;
}

// The platform variants take a pointer to the X11 Window or Pixmap
// (EGL_KHR_platform_x11).
template <typename Attrib>
EGLSurface create_platform_drawable(EGLDisplay dpy, EGLConfig config, void* native, const Attrib* attribs,
                                    EGLint type) {
  if (!native) return fail(type == EGL_WINDOW_BIT ? EGL_BAD_NATIVE_WINDOW : EGL_BAD_NATIVE_PIXMAP, EGL_NO_SURFACE);
  return create_drawable(dpy, config, *static_cast<Drawable*>(native), attribs, type);
}

// A pbuffer's texture attributes as CreateSurface flags; EGL_SUCCESS or the error.
EGLint texture_flags(const Config& config, EGLint format, EGLint target, bool mipmap, uint32_t* flags) {
  *flags = 0;
  if (format != EGL_NO_TEXTURE && format != EGL_TEXTURE_RGB && format != EGL_TEXTURE_RGBA) return EGL_BAD_ATTRIBUTE;
  if (target != EGL_NO_TEXTURE && target != EGL_TEXTURE_2D) return EGL_BAD_ATTRIBUTE;
  if ((format == EGL_NO_TEXTURE) != (target == EGL_NO_TEXTURE)) return EGL_BAD_MATCH;
  if (format == EGL_NO_TEXTURE) return EGL_SUCCESS;
  const EGLint binds = format == EGL_TEXTURE_RGBA ? EGL_BIND_TO_TEXTURE_RGBA : EGL_BIND_TO_TEXTURE_RGB;
  if (config_attrib(config, binds) != EGL_TRUE) return EGL_BAD_ATTRIBUTE;
  *flags = (format == EGL_TEXTURE_RGBA ? wire::kSurfaceTextureRgba : wire::kSurfaceTextureRgb) |
           (mipmap ? wire::kSurfaceMipmapTexture : 0u);
  return EGL_SUCCESS;
}

// eglBindTexImage (bind) and eglReleaseTexImage: the binding is made by the
// host in the current context, in order with the context's GL commands.
EGLBoolean bind_tex_image(EGLDisplay dpy, EGLSurface surface, EGLint buffer, bool bind) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  auto s = d->find_surface(surface);
  if (!s || s->type() != EGL_PBUFFER_BIT) return fail(EGL_BAD_SURFACE, EGL_FALSE);
  if (buffer != EGL_BACK_BUFFER) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (s->texture_format() == EGL_NO_TEXTURE) return fail(EGL_BAD_MATCH, EGL_FALSE);
  if (bind == s->bound_to_texture) return bind ? fail(EGL_BAD_ACCESS, EGL_FALSE) : ok();
  auto& cur = current_state();
  if (!cur.context) return ok();  // no context to bind in: ignored (EGL 1.5 section 3.6.1)
  wire::Writer& w = cur.context->stream().writer();
  const size_t at = w.begin(static_cast<uint32_t>(wire::ControlOp::kBindTexImage));
  w.put(wire::BindTexImage{s->id(), bind ? 1u : 0u});
  w.end(at);
  s->bound_to_texture = bind;
  return ok();
}

}  // namespace

EGLSurface CreateWindowSurface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType window,
                               const EGLint* attribs) {
  return create_drawable(dpy, config, static_cast<Window>(window), attribs, EGL_WINDOW_BIT);
}

EGLSurface CreatePlatformWindowSurface(EGLDisplay dpy, EGLConfig config, void* window,
                                       const EGLAttrib* attribs) {
  return create_platform_drawable(dpy, config, window, attribs, EGL_WINDOW_BIT);
}

EGLSurface CreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* window,
                                          const EGLint* attribs) {
  return create_platform_drawable(dpy, config, window, attribs, EGL_WINDOW_BIT);
}

EGLSurface CreatePbufferSurface(EGLDisplay dpy, EGLConfig config, const EGLint* attribs) {
  std::lock_guard lock(api_mutex());
  Target t = display_and_config(dpy, config);
  if (!t.display) return EGL_NO_SURFACE;
  EGLint width = 0, height = 0;
  bool largest = false;
  EGLint texture_format = EGL_NO_TEXTURE, texture_target = EGL_NO_TEXTURE;
  bool mipmap = false;
  EGLint colorspace = EGL_GL_COLORSPACE_LINEAR;
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    switch (a[0]) {
      case EGL_WIDTH: width = a[1]; break;
      case EGL_HEIGHT: height = a[1]; break;
      case EGL_LARGEST_PBUFFER: largest = a[1] != EGL_FALSE; break;
      case EGL_TEXTURE_FORMAT: texture_format = a[1]; break;
      case EGL_TEXTURE_TARGET: texture_target = a[1]; break;
      case EGL_MIPMAP_TEXTURE: mipmap = a[1] != EGL_FALSE; break;
      default: {
        EGLint error = EGL_SUCCESS;
        if (!common_surface_attrib(*t.display, a[0], a[1], &error, &colorspace)) return fail(error, EGL_NO_SURFACE);
      }
    }
  }
  if (width < 0 || height < 0) return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
  if (!(t.config->surface_type & EGL_PBUFFER_BIT)) return fail(EGL_BAD_MATCH, EGL_NO_SURFACE);
  uint32_t texture = 0;
  if (EGLint e = texture_flags(*t.config, texture_format, texture_target, mipmap, &texture); e != EGL_SUCCESS)
    return fail(e, EGL_NO_SURFACE);
  const EGLint limit = *config_attrib(*t.config, EGL_MAX_PBUFFER_WIDTH);
  if (width > limit || height > limit) {
    if (!largest) return fail(EGL_BAD_ALLOC, EGL_NO_SURFACE);
    width = std::min(width, limit);
    height = std::min(height, limit);
  }
  auto surface = std::make_shared<Surface>(t.display->connection(), *t.config, EGL_PBUFFER_BIT, width, height,
                                           true, colorspace, texture);
  surface->largest_pbuffer = largest;
  EGLSurface handle = surface.get();
  t.display->surfaces[handle] = std::move(surface);
  set_error(EGL_SUCCESS);
  return handle;
}

// Pixmaps are single-buffered: what the context draws reaches the pixmap
// when it flushes or finishes (and eglWaitClient, which finishes).
EGLSurface CreatePixmapSurface(EGLDisplay dpy, EGLConfig config, EGLNativePixmapType pixmap,
                               const EGLint* attribs) {
  return create_drawable(dpy, config, static_cast<Pixmap>(pixmap), attribs, EGL_PIXMAP_BIT);
}

EGLSurface CreatePlatformPixmapSurface(EGLDisplay dpy, EGLConfig config, void* pixmap,
                                       const EGLAttrib* attribs) {
  return create_platform_drawable(dpy, config, pixmap, attribs, EGL_PIXMAP_BIT);
}

EGLSurface CreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* pixmap,
                                          const EGLint* attribs) {
  return create_platform_drawable(dpy, config, pixmap, attribs, EGL_PIXMAP_BIT);
}

// EGL_OPENVG_IMAGE is the only client buffer type in EGL 1.5; OpenVG is not offered.
EGLSurface CreatePbufferFromClientBuffer(EGLDisplay dpy, EGLenum, EGLClientBuffer, EGLConfig config,
                                         const EGLint*) {
  std::lock_guard lock(api_mutex());
  Target t = display_and_config(dpy, config);
  if (!t.display) return EGL_NO_SURFACE;
  return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
}

EGLBoolean DestroySurface(EGLDisplay dpy, EGLSurface surface) {
  return destroy_handle(dpy, &Display::surfaces, surface, EGL_BAD_SURFACE);
}

EGLBoolean QuerySurface(EGLDisplay dpy, EGLSurface surface, EGLint attribute, EGLint* value) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  auto s = d->find_surface(surface);
  if (!s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
  if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  const bool pbuffer = s->type() == EGL_PBUFFER_BIT;
  switch (attribute) {
    case EGL_CONFIG_ID: *value = s->config().config_id; break;
    case EGL_WIDTH: *value = s->width(); break;
    case EGL_HEIGHT: *value = s->height(); break;
    case EGL_LARGEST_PBUFFER:
      if (pbuffer) *value = s->largest_pbuffer;
      break;  // left unchanged for other surfaces, as the spec says
    case EGL_TEXTURE_FORMAT:
      if (pbuffer) *value = s->texture_format();
      break;
    case EGL_TEXTURE_TARGET:
      if (pbuffer) *value = s->texture_format() == EGL_NO_TEXTURE ? EGL_NO_TEXTURE : EGL_TEXTURE_2D;
      break;
    case EGL_MIPMAP_TEXTURE:
      if (pbuffer) *value = s->mipmap_texture();
      break;
    case EGL_MIPMAP_LEVEL:
      if (pbuffer) *value = s->mipmap_level;
      break;
    case EGL_RENDER_BUFFER: *value = EGL_BACK_BUFFER; break;
    case EGL_SWAP_BEHAVIOR: *value = s->swap_behavior; break;
    case EGL_MULTISAMPLE_RESOLVE: *value = EGL_MULTISAMPLE_RESOLVE_DEFAULT; break;
    case EGL_HORIZONTAL_RESOLUTION:
    case EGL_VERTICAL_RESOLUTION:
    case EGL_PIXEL_ASPECT_RATIO: *value = EGL_UNKNOWN; break;
    case EGL_GL_COLORSPACE: *value = s->colorspace(); break;
    case EGL_VG_ALPHA_FORMAT: *value = EGL_VG_ALPHA_FORMAT_NONPRE; break;
    case EGL_VG_COLORSPACE: *value = EGL_VG_COLORSPACE_sRGB; break;
    default: return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  return ok();
}

EGLBoolean SurfaceAttrib(EGLDisplay dpy, EGLSurface surface, EGLint attribute, EGLint value) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  auto s = d->find_surface(surface);
  if (!s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
  switch (attribute) {
    case EGL_SWAP_BEHAVIOR:
      if (value == EGL_BUFFER_DESTROYED) break;
      // Preserving needs EGL_SWAP_BEHAVIOR_PRESERVED_BIT, which no config has.
      return fail(value == EGL_BUFFER_PRESERVED ? EGL_BAD_MATCH : EGL_BAD_PARAMETER, EGL_FALSE);
    case EGL_MULTISAMPLE_RESOLVE:
      if (value == EGL_MULTISAMPLE_RESOLVE_DEFAULT) break;
      return fail(value == EGL_MULTISAMPLE_RESOLVE_BOX ? EGL_BAD_MATCH : EGL_BAD_PARAMETER, EGL_FALSE);
    case EGL_MIPMAP_LEVEL:
      s->mipmap_level = value;  // kept for queries; the binding is of level 0
      return ok();
    default: return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  s->swap_behavior = EGL_BUFFER_DESTROYED;
  return ok();
}

EGLBoolean BindTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer) {
  return bind_tex_image(dpy, surface, buffer, true);
}

EGLBoolean ReleaseTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer) {
  return bind_tex_image(dpy, surface, buffer, false);
}

}  // namespace icd::egl

namespace icd {

DrawnSurface current_draw_surface(EGLDisplay dpy, EGLSurface surface) {
  Display* d = initialized_display(dpy);
  if (!d) return DrawnSurface{};
  auto s = d->find_surface(surface);
  if (!s) return fail(EGL_BAD_SURFACE, DrawnSurface{});
  auto ctx = current_state().context;
  if (!ctx || ctx->draw != s) return fail(EGL_BAD_SURFACE, DrawnSurface{});
  return DrawnSurface{d, std::move(s), std::move(ctx)};
}

}  // namespace icd

namespace icd::egl {

EGLBoolean SwapBuffers(EGLDisplay dpy, EGLSurface surface) {
  std::shared_ptr<Surface> s;
  std::shared_ptr<Context> ctx;
  {
    std::lock_guard lock(api_mutex());
    DrawnSurface drawn = current_draw_surface(dpy, surface);
    if (!drawn.surface) return EGL_FALSE;
    s = std::move(drawn.surface);
    ctx = std::move(drawn.context);
  }
  if (ctx->stream().lost()) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
  if (s->type() != EGL_WINDOW_BIT) return ok();  // no effect on pbuffers (EGL 1.5 3.10.1)
  // The wait for frames happens without the API lock, so other threads'
  // EGL calls go on meanwhile.
  if (!s->swap(ctx->stream())) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
  return ok();
}

EGLBoolean SwapInterval(EGLDisplay dpy, EGLint interval) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  auto& cur = current_state();
  if (!cur.context) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
  if (!cur.context->draw) return fail(EGL_BAD_SURFACE, EGL_FALSE);
  const EGLint max = cur.context->draw->config().max_swap_interval;
  cur.context->draw->swap_interval = std::clamp(interval, 0, max);
  return ok();
}

}  // namespace icd::egl
