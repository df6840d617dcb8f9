// GL_OES_EGL_image and GL_EXT_EGL_image_storage: an EGLImage handle of this
// library is the id the guest chose for the image (egl/api_image.cpp), sent
// as it is; the host looks up its own EGLImage by it. Wire layouts:
// annotations.toml [layouts].
#include <cstdint>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

GLuint image_id(GLeglImageOES image) { return static_cast<GLuint>(reinterpret_cast<uintptr_t>(image)); }

void target_image(void (*encode)(wire::Writer&, GLenum, GLuint), GLenum target, GLeglImageOES image) {
  Stream* s = current_stream();
  if (!s) return;
  encode(s->writer(), target, image_id(image));
  s->commit();
}

// The bytes of an attribute list up to and with its GL_NONE (0 for none);
// GL reads no further, nor do we past a list that never ends.
size_t attrib_list_bytes(const GLint* attribs) {
  constexpr size_t kLongest = 64;
  if (!attribs) return 0;
  size_t n = 0;
  while (n + 1 < kLongest && attribs[n] != 0) ++n;
  return (n + 1) * sizeof(GLint);
}

template <typename Object, typename Encode>
void image_storage(Encode encode, Object object, GLeglImageOES image, const GLint* attribs) {
  Stream* s = current_stream();
  if (!s) return;
  encode(s->writer(), object, image_id(image), attribs, attrib_list_bytes(attribs));
  s->commit();
}

}  // namespace

void GLAPIENTRY handle_glEGLImageTargetTexStorageEXT(GLenum target, GLeglImageOES image,
                                                     const GLint* attrib_list) {
  image_storage(wire::encode_glEGLImageTargetTexStorageEXT, target, image, attrib_list);
}

void GLAPIENTRY handle_glEGLImageTargetTextureStorageEXT(GLuint texture, GLeglImageOES image,
                                                         const GLint* attrib_list) {
  image_storage(wire::encode_glEGLImageTargetTextureStorageEXT, texture, image, attrib_list);
}

void GLAPIENTRY handle_glEGLImageTargetTexture2DOES(GLenum target, GLeglImageOES image) {
  target_image(wire::encode_glEGLImageTargetTexture2DOES, target, image);
}

void GLAPIENTRY handle_glEGLImageTargetRenderbufferStorageOES(GLenum target, GLeglImageOES image) {
  target_image(wire::encode_glEGLImageTargetRenderbufferStorageOES, target, image);
}

}  // namespace icd
