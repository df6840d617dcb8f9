// EGL images of GL textures and renderbuffers (EGL 1.5 section 3.9,
// EGL_KHR_image_base, EGL_KHR_gl_{texture_2D,texture_cubemap,texture_3D,
// renderbuffer}_image). The host makes the image in its own EGL from the
// host name of the guest's texture; the guest's handle is the image's id,
// which GL_OES_EGL_image sends as it is (gl/egl_image_entry.cpp).
#include <cstring>

#include "egl/api.h"
#include "egl/error.h"
#include "egl/objects.h"

namespace icd::egl {
namespace {

bool gl_image_target(EGLenum target) {
  return target == EGL_GL_TEXTURE_2D_KHR || target == EGL_GL_TEXTURE_3D_KHR ||
         target == EGL_GL_RENDERBUFFER_KHR ||
         (target >= EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X_KHR && target <= EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Z_KHR);
}

// Reads the attributes into `msg`; EGL_BAD_PARAMETER for one the target has not.
template <typename Attrib>
EGLint read_attribs(EGLenum target, const Attrib* attribs, wire::CreateImage& msg) {
  const bool texture = target != EGL_GL_RENDERBUFFER_KHR;
  for (const Attrib* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    const auto value = static_cast<uint32_t>(a[1]);
    switch (a[0]) {
      case EGL_GL_TEXTURE_LEVEL_KHR:
        if (!texture) return EGL_BAD_PARAMETER;
        msg.level = value;
        break;
      case EGL_GL_TEXTURE_ZOFFSET_KHR:
        if (target != EGL_GL_TEXTURE_3D_KHR) return EGL_BAD_PARAMETER;
        msg.zoffset = value;
        break;
      case EGL_IMAGE_PRESERVED_KHR: msg.preserved = value != 0; break;
      default: return EGL_BAD_PARAMETER;
    }
  }
  return EGL_SUCCESS;
}

template <typename Attrib>
EGLImage create_image(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                      const Attrib* attribs) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_NO_IMAGE;
  std::shared_ptr<Context> source = d->find_context(ctx);
  if (!source) return fail(EGL_BAD_CONTEXT, EGL_NO_IMAGE);
  auto& conn = *d->connection();
  if (!(conn.host().reply.features & wire::kFeatureGlImages) || !gl_image_target(target)) {
    return fail(EGL_BAD_PARAMETER, EGL_NO_IMAGE);
  }
  const auto name = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(buffer));
  if (name == 0) return fail(EGL_BAD_PARAMETER, EGL_NO_IMAGE);
  wire::CreateImage msg{conn.new_id(), source->id(), target, name, 0, 0, 0};
  if (EGLint e = read_attribs(target, attribs, msg); e != EGL_SUCCESS) return fail(e, EGL_NO_IMAGE);
  // The commands that made the texture go first. Only the calling thread's
  // context can have unsent ones: a context is flushed when it is released,
  // and one current on another thread is that thread's to use.
  if (auto& cur = current_state(); cur.context) cur.context->stream().flush();
  uint64_t ticket = 0;
  if (!conn.send_control(wire::ControlOp::kCreateImage, msg, &ticket)) return fail(EGL_BAD_ALLOC, EGL_NO_IMAGE);
  auto reply = conn.wait_reply(ticket);
  uint32_t error = EGL_BAD_ALLOC;
  if (reply && reply->size() >= sizeof error) std::memcpy(&error, reply->data(), sizeof error);
  if (error != EGL_SUCCESS) return fail(static_cast<EGLint>(error), EGL_NO_IMAGE);
  EGLImage handle = reinterpret_cast<EGLImage>(static_cast<uintptr_t>(msg.image_id));
  d->images.insert(handle);
  set_error(EGL_SUCCESS);
  return handle;
}

}  // namespace

EGLImage CreateImage(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                     const EGLAttrib* attribs) {
  return create_image(dpy, ctx, target, buffer, attribs);
}

EGLImageKHR CreateImageKHR(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                           const EGLint* attribs) {
  return create_image(dpy, ctx, target, buffer, attribs);
}

EGLBoolean DestroyImage(EGLDisplay dpy, EGLImage image) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  if (!d->images.erase(image)) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  const wire::ObjectId id{static_cast<uint32_t>(reinterpret_cast<uintptr_t>(image))};
  // Without a connection the host frees it with the rest of the session.
  const auto sent = d->connection()->send_control(wire::ControlOp::kDestroyImage, id);
  static_cast<void>(sent);
  return ok();
}

}  // namespace icd::egl
