#include "vk/format_blocks.h"

#include <initializer_list>

#include <vulkan/vulkan.h>

namespace host::vk {

namespace {

// Core formats run in families of consecutive enumerants of one size.
struct Family {
  uint32_t first, last;
  TexelBlock block;
};

constexpr Family kCoreFamilies[] = {
    {VK_FORMAT_R4G4_UNORM_PACK8, VK_FORMAT_R4G4_UNORM_PACK8, {1}},
    {VK_FORMAT_R4G4B4A4_UNORM_PACK16, VK_FORMAT_A1R5G5B5_UNORM_PACK16, {2}},
    {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SRGB, {1}},
    {VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SRGB, {2}},
    {VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_B8G8R8_SRGB, {3}},
    {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_A2B10G10R10_SINT_PACK32, {4}},
    {VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SFLOAT, {2}},
    {VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SFLOAT, {4}},
    {VK_FORMAT_R16G16B16_UNORM, VK_FORMAT_R16G16B16_SFLOAT, {6}},
    {VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, {8}},
    {VK_FORMAT_R32_UINT, VK_FORMAT_R32_SFLOAT, {4}},
    {VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SFLOAT, {8}},
    {VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32_SFLOAT, {12}},
    {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SFLOAT, {16}},
    {VK_FORMAT_R64_UINT, VK_FORMAT_R64_SFLOAT, {8}},
    {VK_FORMAT_R64G64_UINT, VK_FORMAT_R64G64_SFLOAT, {16}},
    {VK_FORMAT_R64G64B64_UINT, VK_FORMAT_R64G64B64_SFLOAT, {24}},
    {VK_FORMAT_R64G64B64A64_UINT, VK_FORMAT_R64G64B64A64_SFLOAT, {32}},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, {4}},
    {VK_FORMAT_D16_UNORM, VK_FORMAT_D16_UNORM, {2}},
    {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT, {4}},
    {VK_FORMAT_S8_UINT, VK_FORMAT_S8_UINT, {1}},
    {VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D16_UNORM_S8_UINT, {3}},
    {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, {4}},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, {8}},
    {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_SRGB_BLOCK, {8, 4, 4}},
    {VK_FORMAT_BC2_UNORM_BLOCK, VK_FORMAT_BC3_SRGB_BLOCK, {16, 4, 4}},
    {VK_FORMAT_BC4_UNORM_BLOCK, VK_FORMAT_BC4_SNORM_BLOCK, {8, 4, 4}},
    {VK_FORMAT_BC5_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK, {16, 4, 4}},
    {VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, {8, 4, 4}},
    {VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, {16, 4, 4}},
    {VK_FORMAT_EAC_R11_UNORM_BLOCK, VK_FORMAT_EAC_R11_SNORM_BLOCK, {8, 4, 4}},
    {VK_FORMAT_EAC_R11G11_UNORM_BLOCK, VK_FORMAT_EAC_R11G11_SNORM_BLOCK, {16, 4, 4}},
};

// ASTC blocks are 16 bytes of these footprints, in enumerant order, each
// as UNORM and SRGB (and, from VK_EXT_texture_compression_astc_hdr, SFLOAT).
constexpr uint32_t kAstc[][2] = {{4, 4},  {5, 4},  {5, 5},  {6, 5},   {6, 6},   {8, 5},   {8, 6},
                                 {8, 8},  {10, 5}, {10, 6}, {10, 8},  {10, 10}, {12, 10}, {12, 12}};

TexelBlock later_format(uint32_t format) {
  if (format >= VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK && format <= VK_FORMAT_ASTC_12x12_SFLOAT_BLOCK) {
    const auto* footprint = kAstc[format - VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK];
    return {16, footprint[0], footprint[1]};
  }
  switch (format) {
    case VK_FORMAT_A4R4G4B4_UNORM_PACK16:
    case VK_FORMAT_A4B4G4R4_UNORM_PACK16:
    case VK_FORMAT_R10X6_UNORM_PACK16:
    case VK_FORMAT_R12X4_UNORM_PACK16:
      return {2};
    case VK_FORMAT_R10X6G10X6_UNORM_2PACK16:
    case VK_FORMAT_R12X4G12X4_UNORM_2PACK16:
      return {4};
    case VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16:
    case VK_FORMAT_R12X4G12X4B12X4A12X4_UNORM_4PACK16:
      return {8};
    case VK_FORMAT_G8B8G8R8_422_UNORM:
    case VK_FORMAT_B8G8R8G8_422_UNORM:
      return {4, 2, 1};
    case VK_FORMAT_G16B16G16R16_422_UNORM:
    case VK_FORMAT_B16G16R16G16_422_UNORM:
      return {8, 2, 1};
    default:
      return {};
  }
}

// Multi-planar formats (section 49.1.1 "Multi-planar Format
// Compatibility"): each bit depth's run of five alternates three planes
// and two, and VK_EXT_ycbcr_2plane_444_formats adds four of two.
uint32_t plane_count(uint32_t format) {
  for (uint32_t first : {VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16,
                         VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16, VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM})
    if (format >= first && format <= first + 4) return (format - first) % 2 ? 2 : 3;
  if (format >= VK_FORMAT_G8_B8R8_2PLANE_444_UNORM && format <= VK_FORMAT_G16_B16R16_2PLANE_444_UNORM) return 2;
  return 1;
}

}  // namespace

TexelBlock texel_block(uint32_t format) {
  for (const Family& f : kCoreFamilies)
    if (format >= f.first && format <= f.last) return f.block;
  if (format >= VK_FORMAT_ASTC_4x4_UNORM_BLOCK && format <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK) {
    const auto* footprint = kAstc[(format - VK_FORMAT_ASTC_4x4_UNORM_BLOCK) / 2];
    return {16, footprint[0], footprint[1]};
  }
  return later_format(format);
}

TexelBlock aspect_block(uint32_t format, uint32_t aspect) {
  if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) return {1};
  if (aspect != VK_IMAGE_ASPECT_DEPTH_BIT) return texel_block(format);
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT:
      return {2};
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return {4};
    default:
      return {};
  }
}

uint32_t format_aspects(uint32_t format) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
      return VK_IMAGE_ASPECT_DEPTH_BIT;
    case VK_FORMAT_S8_UINT:
      return VK_IMAGE_ASPECT_STENCIL_BIT;
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    default:
      break;
  }
  switch (plane_count(format)) {
    case 3:
      return VK_IMAGE_ASPECT_PLANE_0_BIT | VK_IMAGE_ASPECT_PLANE_1_BIT | VK_IMAGE_ASPECT_PLANE_2_BIT;
    case 2:
      return VK_IMAGE_ASPECT_PLANE_0_BIT | VK_IMAGE_ASPECT_PLANE_1_BIT;
    default:
      return VK_IMAGE_ASPECT_COLOR_BIT;
  }
}

}  // namespace host::vk
