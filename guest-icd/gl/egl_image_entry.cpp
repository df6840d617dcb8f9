// GL_OES_EGL_image: an EGLImage handle of this library is the id the guest
// chose for the image (egl/api_image.cpp), sent as it is; the host looks up
// its own EGLImage by it. Wire layouts: annotations.toml [layouts].
#include <cstdint>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

void target_image(void (*encode)(wire::Writer&, GLenum, GLuint), GLenum target, GLeglImageOES image) {
  Stream* s = current_stream();
  if (!s) return;
  encode(s->writer(), target, static_cast<GLuint>(reinterpret_cast<uintptr_t>(image)));
  s->commit();
}

}  // namespace

void GLAPIENTRY handle_glEGLImageTargetTexture2DOES(GLenum target, GLeglImageOES image) {
  target_image(wire::encode_glEGLImageTargetTexture2DOES, target, image);
}

void GLAPIENTRY handle_glEGLImageTargetRenderbufferStorageOES(GLenum target, GLeglImageOES image) {
  target_image(wire::encode_glEGLImageTargetRenderbufferStorageOES, target, image);
}

}  // namespace icd
