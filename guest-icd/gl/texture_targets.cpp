#include "gl/texture_targets.h"

namespace icd {

GLenum texture_object_target(GLenum target) {
  constexpr GLenum kCubeMap = 0x8513, kCubeFaceFirst = 0x8515, kCubeFaceLast = 0x851A;
  if (target >= kCubeFaceFirst && target <= kCubeFaceLast) return kCubeMap;
  switch (target) {
    case 0x0DE0:  // GL_TEXTURE_1D
    case 0x0DE1:  // GL_TEXTURE_2D
    case 0x806F:  // GL_TEXTURE_3D
    case 0x84F5:  // GL_TEXTURE_RECTANGLE
    case kCubeMap:
    case 0x8C18:  // GL_TEXTURE_1D_ARRAY
    case 0x8C1A:  // GL_TEXTURE_2D_ARRAY
    case 0x8C2A:  // GL_TEXTURE_BUFFER
    case 0x9009:  // GL_TEXTURE_CUBE_MAP_ARRAY
    case 0x9100:  // GL_TEXTURE_2D_MULTISAMPLE
    case 0x9102:  // GL_TEXTURE_2D_MULTISAMPLE_ARRAY
    case 0x8D65:  // GL_TEXTURE_EXTERNAL_OES
      return target;
    default:
      return 0;
  }
}

void TextureTargets::note(GLuint texture, GLenum target) {
  const GLenum made = texture_object_target(target);
  if (texture == 0 || made == 0) return;
  std::lock_guard lock(mu_);
  targets_.try_emplace(texture, made);
}

void TextureTargets::note(const GLuint* textures, GLsizei count, GLenum target) {
  for (GLsizei i = 0; textures && i < count; ++i) note(textures[i], target);
}

void TextureTargets::forget(const GLuint* textures, GLsizei count) {
  std::lock_guard lock(mu_);
  for (GLsizei i = 0; textures && i < count; ++i) targets_.erase(textures[i]);
}

bool TextureTargets::mismatched(GLuint texture, GLenum target) const {
  std::lock_guard lock(mu_);
  const GLenum named = texture_object_target(target);
  auto it = targets_.find(texture);
  return named != 0 && it != targets_.end() && it->second != named;
}

}  // namespace icd
