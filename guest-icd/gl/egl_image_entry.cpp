// GL_OES_EGL_image: an EGLImage handle of this library is the id the guest
// chose for the image (egl/api_image.cpp), sent as it is; the host looks up
// its own EGLImage by it. Wire layouts: host-renderer/gl/egl_image_handlers.cpp.
#include <cstdint>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"

namespace icd {
namespace {

void target_image(wire::GlOp op, GLenum target, GLeglImageOES image) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin(*s, op);
  s->writer().put(static_cast<uint32_t>(target));
  s->writer().put(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(image)));
  finish(*s, cmd);
}

}  // namespace

void GLAPIENTRY handle_glEGLImageTargetTexture2DOES(GLenum target, GLeglImageOES image) {
  target_image(wire::GlOp::glEGLImageTargetTexture2DOES, target, image);
}

void GLAPIENTRY handle_glEGLImageTargetRenderbufferStorageOES(GLenum target, GLeglImageOES image) {
  target_image(wire::GlOp::glEGLImageTargetRenderbufferStorageOES, target, image);
}

}  // namespace icd
