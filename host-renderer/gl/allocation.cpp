#include "gl/allocation.h"

#include <algorithm>

#include "gl/dispatch_support.h"
#include "gl/memory_ledger.h"
#include "wire/sizes.h"

namespace host {
namespace {

// Dimensions and counts are non-negative here.
int64_t mul(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? kSaturatedBytes : r;
}

int64_t add(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? kSaturatedBytes : r;
}

// Dimensions past this GL surely refuses: note_texture_size_limit().
int64_t dimension_bound = INT64_MAX;

bool past_gl_limits(int64_t width, int64_t height, int64_t depth) {
  return width > dimension_bound || height > dimension_bound || depth > dimension_bound;
}

GLenum buffer_binding(GLenum target) {
  switch (target) {
    case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
    case GL_ELEMENT_ARRAY_BUFFER: return GL_ELEMENT_ARRAY_BUFFER_BINDING;
    case GL_PIXEL_PACK_BUFFER: return GL_PIXEL_PACK_BUFFER_BINDING;
    case GL_PIXEL_UNPACK_BUFFER: return GL_PIXEL_UNPACK_BUFFER_BINDING;
    case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
    case GL_TRANSFORM_FEEDBACK_BUFFER: return GL_TRANSFORM_FEEDBACK_BUFFER_BINDING;
    case GL_COPY_READ_BUFFER: return GL_COPY_READ_BUFFER_BINDING;
    case GL_COPY_WRITE_BUFFER: return GL_COPY_WRITE_BUFFER_BINDING;
    case GL_SHADER_STORAGE_BUFFER: return GL_SHADER_STORAGE_BUFFER_BINDING;
    case GL_ATOMIC_COUNTER_BUFFER: return GL_ATOMIC_COUNTER_BUFFER_BINDING;
    case GL_DRAW_INDIRECT_BUFFER: return GL_DRAW_INDIRECT_BUFFER_BINDING;
    case GL_DISPATCH_INDIRECT_BUFFER: return GL_DISPATCH_INDIRECT_BUFFER_BINDING;
    case GL_TEXTURE_BUFFER: return GL_TEXTURE_BUFFER_BINDING;
    case GL_QUERY_BUFFER: return GL_QUERY_BUFFER_BINDING;
    case GL_PARAMETER_BUFFER: return GL_PARAMETER_BUFFER_BINDING;
    default: return 0;
  }
}

// The binding query of a texture target, and the cube face it names.
GLenum texture_binding(GLenum target, uint32_t* face) {
  *face = 0;
  if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
    *face = target - GL_TEXTURE_CUBE_MAP_POSITIVE_X;
    return GL_TEXTURE_BINDING_CUBE_MAP;
  }
  switch (target) {
    case GL_TEXTURE_1D: return GL_TEXTURE_BINDING_1D;
    case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
    case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
    case GL_TEXTURE_1D_ARRAY: return GL_TEXTURE_BINDING_1D_ARRAY;
    case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_TEXTURE_RECTANGLE: return GL_TEXTURE_BINDING_RECTANGLE;
    case GL_TEXTURE_CUBE_MAP: return GL_TEXTURE_BINDING_CUBE_MAP;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
    case GL_TEXTURE_2D_MULTISAMPLE: return GL_TEXTURE_BINDING_2D_MULTISAMPLE;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY;
    case GL_TEXTURE_BUFFER: return GL_TEXTURE_BINDING_BUFFER;
    default: return 0;  // proxies allocate nothing; other targets are GL errors
  }
}

GLenum binding_of(const Allocation& a, uint32_t* face) {
  *face = 0;
  switch (a.kind) {
    case wire::ObjectType::kBuffer: return buffer_binding(a.target);
    case wire::ObjectType::kTexture: return texture_binding(a.target, face);
    case wire::ObjectType::kRenderbuffer:
      return a.target == GL_RENDERBUFFER ? GL_RENDERBUFFER_BINDING : 0;
    default: return 0;
  }
}

bool compressed_block_format(GLenum f) {
  auto in = [f](GLenum lo, GLenum hi) { return f >= lo && f <= hi; };
  return in(GL_COMPRESSED_RGB_S3TC_DXT1_EXT, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT) ||
         in(GL_COMPRESSED_SRGB_S3TC_DXT1_EXT, GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT) ||
         in(GL_COMPRESSED_LUMINANCE_LATC1_EXT, GL_COMPRESSED_SIGNED_LUMINANCE_ALPHA_LATC2_EXT) ||
         in(GL_COMPRESSED_RED_RGTC1, GL_COMPRESSED_SIGNED_RG_RGTC2) ||
         in(GL_COMPRESSED_RGBA_BPTC_UNORM, GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT) ||
         in(GL_COMPRESSED_R11_EAC, GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC) ||
         in(GL_COMPRESSED_RGBA_ASTC_4x4_KHR, GL_COMPRESSED_RGBA_ASTC_12x12_KHR) ||
         in(GL_COMPRESSED_RGBA_ASTC_3x3x3_OES, GL_COMPRESSED_RGBA_ASTC_6x6x6_OES) ||
         in(GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_12x12_KHR) ||
         in(GL_COMPRESSED_SRGB8_ALPHA8_ASTC_3x3x3_OES, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_6x6x6_OES) ||
         in(GL_COMPRESSED_RGB_PVRTC_4BPPV1_IMG, GL_COMPRESSED_RGBA_PVRTC_2BPPV1_IMG) ||
         f == GL_ETC1_RGB8_OES;
}

// The name bound at `binding`, on texture unit `unit` (GL_TEXTUREi) when
// one is named, read with that unit active for a moment; none for a unit GL
// does not have, whose command GL refuses.
std::optional<GLuint> bound_object(const Allocation& a, GLenum binding) {
  GLint active = 0, bound = 0;
  if (a.unit != 0) {
    if (!texture_unit_exists(a.unit)) return std::nullopt;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glActiveTexture(a.unit);
  }
  glGetIntegerv(binding, &bound);
  if (a.unit != 0) glActiveTexture(static_cast<GLenum>(active));
  return static_cast<GLuint>(bound);
}

}  // namespace

void note_texture_size_limit(int64_t max_texture_size) {
  // Well past every size limit GL reports: 3D textures, array layers and
  // renderbuffers are no larger than 2D textures.
  if (max_texture_size > 0) dimension_bound = max_texture_size * 4;
}

std::optional<StoragePlace> find_storage(const Allocation& a) {
  uint32_t face = 0;
  GLuint object = a.object;
  if (!a.named) {
    const GLenum binding = binding_of(a, &face);
    if (binding == 0) return std::nullopt;
    const auto bound = bound_object(a, binding);
    if (!bound) return std::nullopt;
    object = *bound;
  } else if (a.target != 0 && binding_of(a, &face) == 0) {
    return std::nullopt;  // a target GL refuses
  }
  // Texture 0 is the context's default texture and holds storage; buffer and
  // renderbuffer 0 are GL errors.
  if (object == 0 && (a.named || a.kind != wire::ObjectType::kTexture)) return std::nullopt;
  if (a.mip_chain) return StoragePlace{object, kMipChain};
  if (!a.per_level) return StoragePlace{object, kWholeObject};
  if (a.level < 0 || a.level >= kMaxLevels) return std::nullopt;
  const auto level = static_cast<uint32_t>(a.level);
  return StoragePlace{object, a.samples > 0 ? sample_part(level) : level_part(level, face)};
}

int64_t texel_bytes(GLenum f) {
  switch (f) {
    case GL_R8: case GL_R8_SNORM: case GL_R8I: case GL_R8UI: case GL_RED: case GL_ALPHA:
    case GL_LUMINANCE: case GL_INTENSITY: case GL_ALPHA8: case GL_LUMINANCE8: case GL_INTENSITY8:
    case GL_STENCIL_INDEX: case GL_STENCIL_INDEX8: case GL_R3_G3_B2:
      return 1;
    case GL_RG8: case GL_RG8_SNORM: case GL_RG8I: case GL_RG8UI: case GL_R16: case GL_R16_SNORM:
    case GL_R16F: case GL_R16I: case GL_R16UI: case GL_RG: case GL_LUMINANCE_ALPHA:
    case GL_LUMINANCE8_ALPHA8: case GL_ALPHA16: case GL_LUMINANCE16: case GL_INTENSITY16:
    case GL_RGB565: case GL_RGBA4: case GL_RGB5_A1: case GL_RGB4: case GL_RGB5: case GL_RGBA2:
    case GL_DEPTH_COMPONENT16: case GL_STENCIL_INDEX16:
      return 2;
    // Three-component formats are stored padded to four.
    case GL_RGB: case GL_RGBA: case GL_BGRA: case GL_BGRA8_EXT: case GL_RGB8: case GL_RGB8_SNORM:
    case GL_RGB8I: case GL_RGB8UI: case GL_SRGB: case GL_SRGB8: case GL_SRGB_ALPHA:
    case GL_SRGB8_ALPHA8: case GL_RGBA8: case GL_RGBA8_SNORM: case GL_RGBA8I: case GL_RGBA8UI:
    case GL_RGB10: case GL_RGB10_A2: case GL_RGB10_A2UI: case GL_R11F_G11F_B10F: case GL_RGB9_E5:
    case GL_RG16: case GL_RG16_SNORM: case GL_RG16F: case GL_RG16I: case GL_RG16UI: case GL_R32F:
    case GL_R32I: case GL_R32UI: case GL_LUMINANCE16_ALPHA16: case GL_DEPTH_COMPONENT:
    case GL_DEPTH_COMPONENT24: case GL_DEPTH_COMPONENT32: case GL_DEPTH_COMPONENT32F:
    case GL_DEPTH_STENCIL: case GL_DEPTH24_STENCIL8:
    // Generic compressed formats may be stored uncompressed.
    case GL_COMPRESSED_RED: case GL_COMPRESSED_RG: case GL_COMPRESSED_RGB: case GL_COMPRESSED_RGBA:
    case GL_COMPRESSED_SRGB: case GL_COMPRESSED_SRGB_ALPHA: case GL_COMPRESSED_ALPHA:
    case GL_COMPRESSED_LUMINANCE: case GL_COMPRESSED_LUMINANCE_ALPHA: case GL_COMPRESSED_INTENSITY:
      return 4;
    case GL_RGB12: case GL_RGBA12: case GL_RGB16: case GL_RGB16_SNORM: case GL_RGB16F:
    case GL_RGB16I: case GL_RGB16UI: case GL_RGBA16: case GL_RGBA16_SNORM: case GL_RGBA16F:
    case GL_RGBA16I: case GL_RGBA16UI: case GL_RG32F: case GL_RG32I: case GL_RG32UI:
    case GL_DEPTH32F_STENCIL8:
      return 8;
    default:
      return compressed_block_format(f) ? 1 : 16;
  }
}

int64_t image_bytes(GLenum internalformat, GLenum format, GLenum type, int64_t width,
                    int64_t height, int64_t depth) {
  if (width < 0 || height < 0 || depth < 0) return kRefusedByGl;
  if (past_gl_limits(width, height, depth)) return kPastGlLimits;
  // OpenGL ES derives the stored format of an unsized internal format from
  // the type (GL_RGBA with GL_FLOAT is stored as floats): count the larger.
  const auto client = static_cast<int64_t>(wire::size::pixel_size(format, type));
  const int64_t texel = std::max(texel_bytes(internalformat), client);
  return mul(mul(mul(width, height), depth), texel);
}

int64_t storage_bytes(GLenum target, GLenum internalformat, int64_t levels, int64_t width,
                      int64_t height, int64_t depth) {
  if (levels < 1 || levels > kMaxLevels || width < 0 || height < 0 || depth < 0) {
    return kRefusedByGl;
  }
  if (past_gl_limits(width, height, depth)) return kPastGlLimits;
  // Array layers keep their count down the mip chain (OpenGL 4.6, 8.14.3).
  const bool halve_height = target != GL_TEXTURE_1D_ARRAY && target != 0;
  const bool halve_depth = target == GL_TEXTURE_3D;
  int64_t texels = 0;
  for (int64_t i = 0; i < levels; ++i) {
    const int64_t w = std::max<int64_t>(1, width >> i);
    const int64_t h = halve_height ? std::max<int64_t>(1, height >> i) : height;
    const int64_t d = halve_depth ? std::max<int64_t>(1, depth >> i) : depth;
    texels = add(texels, mul(mul(w, h), d));
  }
  const int64_t faces = target == GL_TEXTURE_CUBE_MAP ? kCubeFaces : 1;
  return mul(mul(texels, faces), texel_bytes(internalformat));
}

int64_t multisample_bytes(GLenum internalformat, int64_t samples, int64_t width, int64_t height,
                          int64_t depth) {
  if (samples < 0 || width < 0 || height < 0 || depth < 0) return kRefusedByGl;
  if (past_gl_limits(width, height, depth)) return kPastGlLimits;
  const int64_t texels = mul(mul(width, height), depth);
  return mul(mul(texels, std::max<int64_t>(samples, 1)), texel_bytes(internalformat));
}

}  // namespace host
