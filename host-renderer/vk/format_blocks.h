// The texel block of each format the host sizes copies by (Vulkan 1.3,
// section 49.1 "Format Definition" and its compatibility classes).
#pragma once

#include <cstdint>

namespace host::vk {

struct TexelBlock {
  uint32_t bytes = 0;  // 0: a format the host does not size (multi-planar, unknown)
  uint32_t width = 1;
  uint32_t height = 1;
};

// The block of `format` as a whole; a copy of one aspect of a depth/stencil
// format moves that aspect's texels (VkBufferImageCopy, section 21.4).
TexelBlock texel_block(uint32_t format);
TexelBlock aspect_block(uint32_t format, uint32_t aspect);
// The aspects an image of `format` has (section 12.3.1 "Image Aspects"):
// colour, depth and/or stencil, or each plane of a multi-planar format.
uint32_t format_aspects(uint32_t format);

}  // namespace host::vk
