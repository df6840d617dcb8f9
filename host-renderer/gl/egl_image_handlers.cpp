// GL_OES_EGL_image: a texture or renderbuffer takes the storage of an EGL
// image the guest made (host-renderer/src/session_images.cpp). The guest
// names the image by the id it chose; an id the session does not know is
// GL_INVALID_VALUE, as an unknown image is natively.
//
// Wire layouts: wire-protocol/annotations.toml [layouts].

#include <epoxy/gl.h>

#include "gl/context_impl.h"
#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "gl/memory_ledger.h"

namespace host {
namespace {

template <typename Args, typename Target>
wire::Status target_image(DispatchEnv& env, wire::Reader& r, wire::Status (*decode)(wire::Reader&, Args&),
                          Target target_storage) {
  Args a{};
  WIRE_TRY(decode(r, a));
  const auto it = env.images->find(a.image);
  if (it == env.images->end()) {
    refuse_call(env.state.impl(), GL_INVALID_VALUE);
    return {};
  }
  target_storage(a.target, static_cast<GLeglImageOES>(it->second.egl));
  return {};
}

}  // namespace

bool GlContextState::image_source(wire::ObjectType kind, uint32_t guest, uint32_t* host, uint64_t* bytes) {
  Impl& st = impl();
  GLuint name = 0;
  if (guest == 0 || !st.translate(kind, guest, NameUse::kExisting, &name) || name == kNoSuchObject) return false;
  *host = name;
  *bytes = st.share->ledger.bytes_of(kind, name);
  return true;
}

wire::Status handle_glEGLImageTargetTexture2DOES(DispatchEnv& env, wire::Reader& r) {
  return target_image(env, r, wire::decode_glEGLImageTargetTexture2DOES, glEGLImageTargetTexture2DOES);
}

wire::Status handle_glEGLImageTargetRenderbufferStorageOES(DispatchEnv& env, wire::Reader& r) {
  return target_image(env, r, wire::decode_glEGLImageTargetRenderbufferStorageOES,
                      glEGLImageTargetRenderbufferStorageOES);
}

}  // namespace host
