// GL_OES_EGL_image and GL_EXT_EGL_image_storage: a texture or renderbuffer
// takes the storage of an EGL image the guest made
// (host-renderer/gl/guest_images.cpp). The guest
// names the image by the id it chose; an id the session does not know is
// GL_INVALID_VALUE, as an unknown image is natively.
//
// Wire layouts: wire-protocol/annotations.toml [layouts].

#include <epoxy/gl.h>

#include <cstring>
#include <vector>

#include "gl/context_impl.h"
#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "gl/memory_ledger.h"

namespace host {
namespace {

// The host's EGLImage of the guest's image id; null (GL_INVALID_VALUE kept
// for the guest) when the session has none of that id.
GLeglImageOES find_image(DispatchEnv& env, uint32_t id) {
  const auto it = env.images->find(id);
  if (it != env.images->end()) return static_cast<GLeglImageOES>(it->second.egl);
  refuse_call(env.state.impl(), GL_INVALID_VALUE);
  return nullptr;
}

template <typename Args, typename Target>
wire::Status target_image(DispatchEnv& env, wire::Reader& r, wire::Status (*decode)(wire::Reader&, Args&),
                          Target target_storage) {
  Args a{};
  WIRE_TRY(decode(r, a));
  if (GLeglImageOES image = find_image(env, a.image)) target_storage(a.target, image);
  return {};
}

// An attribute list as GL reads it: null, or the guest's values ended by
// GL_NONE whether or not the guest's list had one.
std::vector<GLint> attrib_list(const wire::Data& d) {
  std::vector<GLint> out(d.bytes.size() / sizeof(GLint));
  if (!out.empty()) std::memcpy(out.data(), d.bytes.data(), out.size() * sizeof(GLint));
  out.push_back(GL_NONE);
  return out;
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

wire::Status handle_glEGLImageTargetTexStorageEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glEGLImageTargetTexStorageEXT a;
  WIRE_TRY(wire::decode_glEGLImageTargetTexStorageEXT(r, a));
  const std::vector<GLint> attribs = attrib_list(a.attrib_list);
  if (GLeglImageOES image = find_image(env, a.image)) {
    glEGLImageTargetTexStorageEXT(a.target, image, a.attrib_list.is_null() ? nullptr : attribs.data());
  }
  return {};
}

wire::Status handle_glEGLImageTargetTextureStorageEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glEGLImageTargetTextureStorageEXT a;
  WIRE_TRY(wire::decode_glEGLImageTargetTextureStorageEXT(r, a));
  GLuint texture = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kTexture, a.texture, NameUse::kExisting, &texture));
  const std::vector<GLint> attribs = attrib_list(a.attrib_list);
  if (GLeglImageOES image = find_image(env, a.image)) {
    glEGLImageTargetTextureStorageEXT(texture, image, a.attrib_list.is_null() ? nullptr : attribs.data());
  }
  return {};
}

}  // namespace host
