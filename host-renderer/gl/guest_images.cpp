// EGL images of a guest's GL textures and renderbuffers (EGL_KHR_image_base
// with the gl_texture_2D/cubemap/3D and gl_renderbuffer image extensions),
// bound elsewhere through GL_OES_EGL_image (gl/egl_image_handlers.cpp).
//
// An image keeps its source's storage alive after the source is deleted,
// so each image is charged what its source holds for as long as it lives,
// and the source stays referenced for the memory ledger.
#include <epoxy/egl.h>

#include "control_args.h"
#include "gl/gl_handler.h"

namespace host {
namespace {

constexpr size_t kMaxImages = 4096;
constexpr uint64_t kImageBytes = 256;  // the host's own record, however small the source
// Beyond any level or 3D slice GL has: refused before EGL reads them as signed.
constexpr uint32_t kMaxLevel = 31, kMaxZOffset = 1u << 16;

bool renderbuffer_target(uint32_t target) { return target == EGL_GL_RENDERBUFFER_KHR; }

// The image targets this host's EGL makes, each behind its extension.
bool target_offered(const EglDisplay& display, uint32_t target) {
  switch (target) {
    case EGL_GL_TEXTURE_2D_KHR: return display.has_extension("EGL_KHR_gl_texture_2D_image");
    case EGL_GL_TEXTURE_3D_KHR: return display.has_extension("EGL_KHR_gl_texture_3D_image");
    case EGL_GL_RENDERBUFFER_KHR: return display.has_extension("EGL_KHR_gl_renderbuffer_image");
    default:
      return target >= EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X_KHR && target <= EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Z_KHR &&
             display.has_extension("EGL_KHR_gl_texture_cubemap_image");
  }
}

}  // namespace

// Guests are offered the four image extensions together.
bool GlHandler::offers_gl_images() const {
  return display_.has_extension("EGL_KHR_image_base") && target_offered(display_, EGL_GL_TEXTURE_2D_KHR) &&
         target_offered(display_, EGL_GL_TEXTURE_3D_KHR) && target_offered(display_, EGL_GL_RENDERBUFFER_KHR) &&
         target_offered(display_, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X_KHR);
}

wire::Status GlHandler::create_image(wire::Reader& r, wire::Writer& reply) {
  auto c = read_control<wire::CreateImage>(r);
  if (!c) return c.error();
  if (c->image_id == 0 || images_.count(c->image_id)) {
    return wire::make_error(wire::Errc::kBadName, "image id " + std::to_string(c->image_id), r.offset());
  }
  auto ctx = contexts_.find(c->context_id);
  if (ctx == contexts_.end()) return unknown_id("context", c->context_id, r.offset());
  // What EGL itself would answer: the guest checked its side already.
  auto answer = [&](EGLint error) {
    reply.put(static_cast<uint32_t>(error));
    return wire::Status{};
  };
  if (!offers_gl_images() || !target_offered(display_, c->target) || c->level > kMaxLevel ||
      c->zoffset > kMaxZOffset)
    return answer(EGL_BAD_PARAMETER);
  if (images_.size() >= kMaxImages) return answer(EGL_BAD_ALLOC);
  GlContextState& state = *ctx->second->state;
  const auto kind = renderbuffer_target(c->target) ? wire::ObjectType::kRenderbuffer : wire::ObjectType::kTexture;
  uint32_t source = 0;
  uint64_t bytes = 0;
  if (!state.image_source(kind, c->buffer, &source, &bytes)) return answer(EGL_BAD_PARAMETER);
  if (!account_.try_charge(bytes + kImageBytes)) return answer(EGL_BAD_ALLOC);
  const EGLint attribs[] = {EGL_GL_TEXTURE_LEVEL_KHR, static_cast<EGLint>(c->level),
                            EGL_GL_TEXTURE_ZOFFSET_KHR, static_cast<EGLint>(c->zoffset),
                            EGL_IMAGE_PRESERVED_KHR, c->preserved ? EGL_TRUE : EGL_FALSE, EGL_NONE};
  const EGLint* used = renderbuffer_target(c->target) ? attribs + 4 : attribs;
  EGLImageKHR image = eglCreateImageKHR(display_.handle(), ctx->second->egl, c->target,
                                        reinterpret_cast<EGLClientBuffer>(static_cast<uintptr_t>(source)), used);
  if (image == EGL_NO_IMAGE_KHR) {
    account_.release(bytes + kImageBytes);
    return answer(eglGetError());
  }
  images_[c->image_id] = GuestImage{image, bytes + kImageBytes, state.share_group().get(), kind, source};
  return answer(EGL_SUCCESS);
}

wire::Status GlHandler::destroy_image(wire::Reader& r) {
  auto id = read_control<wire::ObjectId>(r);
  if (!id) return id.error();
  auto it = images_.find(id->id);
  if (it == images_.end()) return unknown_id("image", id->id, r.offset());
  eglDestroyImageKHR(display_.handle(), it->second.egl);
  account_.release(it->second.bytes);
  images_.erase(it);
  return {};
}

void GlHandler::destroy_images() {
  for (auto& [id, image] : images_) {
    eglDestroyImageKHR(display_.handle(), image.egl);
    account_.release(image.bytes);
  }
  images_.clear();
}

void GlHandler::add_image_sources(const ShareGroup& group, ObjectReferences& refs) const {
  for (const auto& [id, image] : images_) {
    if (image.group == &group) refs.add(image.kind, image.source);
  }
}

}  // namespace host
