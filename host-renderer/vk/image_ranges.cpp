// Image subresources and regions, checked against the image they name
// (Vulkan 1.3, sections 20 "Clear Commands" and 21 "Copy Commands", 12.5
// "Image Views"): mip levels, array layers and texel regions inside the
// image, and the buffer bytes a buffer-image copy reaches inside the
// buffer. Drivers index their mip and layer tables and copy texel rows by
// these numbers without looking.
#include <algorithm>
#include <string>

#include "vk/format_blocks.h"
#include "vk/handle_table.h"
#include "vk/refusal.h"
#include "vk/resource_shapes.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

uint64_t mip_size(uint32_t size, uint32_t mip) { return mip < 32 ? std::max<uint64_t>(1, size >> mip) : 1; }

uint64_t blocks(uint64_t texels, uint32_t block) { return (texels + block - 1) / block; }

bool layers_fit(const ImageShape& image, const VkImageSubresourceLayers& s) {
  return s.aspectMask && s.mipLevel < image.mips && s.layerCount && fits(s.baseArrayLayer, s.layerCount, image.layers);
}

bool range_fits(const ImageShape& image, const VkImageSubresourceRange& r) {
  auto part_fits = [](uint32_t base, uint32_t count, uint32_t total) {
    return count == VK_REMAINING_MIP_LEVELS ? base < total : count && fits(base, count, total);
  };
  return r.aspectMask && part_fits(r.baseMipLevel, r.levelCount, image.mips) &&
         part_fits(r.baseArrayLayer, r.layerCount, image.layers);
}

// A box of texels inside the subresource's mip level. A level of a blocked
// (compressed) format is stored as whole blocks, so it reaches to its last
// block's end: a level of 2x2 texels is one 4x4 block, which a copy from
// another level or format moves whole (section 21.3).
bool box_fits(const ImageShape& image, uint32_t mip, const VkOffset3D& at, const VkExtent3D& size,
              const TexelBlock& block = {}) {
  auto axis = [](int32_t offset, uint32_t extent, uint64_t total) {
    return offset >= 0 && extent && fits(static_cast<uint64_t>(offset), extent, total);
  };
  return axis(at.x, size.width, blocks(mip_size(image.width, mip), block.width) * block.width) &&
         axis(at.y, size.height, blocks(mip_size(image.height, mip), block.height) * block.height) &&
         axis(at.z, size.depth, mip_size(image.depth, mip));
}

// A blit's corners may come in either order; both lie inside the level.
bool corners_fit(const ImageShape& image, uint32_t mip, const VkOffset3D* corners) {
  for (int i = 0; i < 2; ++i) {
    const VkOffset3D& c = corners[i];
    if (c.x < 0 || c.y < 0 || c.z < 0 || uint64_t(c.x) > mip_size(image.width, mip) ||
        uint64_t(c.y) > mip_size(image.height, mip) || uint64_t(c.z) > mip_size(image.depth, mip))
      return false;
  }
  return true;
}

// The end of the bytes a buffer-image copy region reaches in the buffer
// (section 21.4.1 "Buffer and Image Addressing"); false when the format
// cannot be sized or the sum overflows.
template <typename Region>
bool buffer_reach(const ImageShape& image, const Region& r, uint64_t* reach) {
  const TexelBlock block = aspect_block(image.format, r.imageSubresource.aspectMask);
  if (!block.bytes) return false;
  const uint64_t row_texels = r.bufferRowLength ? r.bufferRowLength : r.imageExtent.width;
  const uint64_t image_rows = r.bufferImageHeight ? r.bufferImageHeight : r.imageExtent.height;
  if (row_texels < r.imageExtent.width || image_rows < r.imageExtent.height) return false;
  const uint64_t row = blocks(row_texels, block.width);
  const uint64_t slice = blocks(image_rows, block.height);
  const uint64_t slices = uint64_t{r.imageExtent.depth} * r.imageSubresource.layerCount;
  unsigned __int128 texels = (unsigned __int128)(slices - 1) * row * slice +
                             (unsigned __int128)(blocks(r.imageExtent.height, block.height) - 1) * row +
                             blocks(r.imageExtent.width, block.width);
  unsigned __int128 end = texels * block.bytes + r.bufferOffset;
  if (end > UINT64_MAX) return false;
  *reach = static_cast<uint64_t>(end);
  return true;
}

}  // namespace

// An image the guest made, with memory bound.
wire::Result<const ImageShape*> ResourceShapes::image(uint64_t handle, const char* command) const {
  auto it = images_.find(handle);
  if (it == images_.end() || !it->second.memory) return refused(command, "of an image without memory");
  return &it->second;
}

template <typename Region>
wire::Status ResourceShapes::check_buffer_image(const char* command, uint64_t buffer_handle, uint64_t image_handle,
                                                const Region* regions, uint32_t count) const {
  WIRE_TRY_ASSIGN(b, buffer(buffer_handle, command));
  WIRE_TRY_ASSIGN(i, image(image_handle, command));
  for (uint32_t n = 0; n < count; ++n) {
    const Region& r = regions[n];
    uint64_t reach = 0;
    if (!layers_fit(*i, r.imageSubresource) ||
        !box_fits(*i, r.imageSubresource.mipLevel, r.imageOffset, r.imageExtent))
      return refused(command, "of a region outside its image: region " + std::to_string(n));
    if (!buffer_reach(*i, r, &reach) || reach > b->size)
      return refused(command, "of a region past its buffer's end, or of a format the host does not size: region " +
                                  std::to_string(n));
  }
  return {};
}

// Image to image: each side's subresource and box inside its image, the
// destination's box scaled by the two formats' blocks (section 21.3).
template <typename Region>
wire::Status ResourceShapes::check_image_copy(const char* command, uint64_t src_handle, uint64_t dst_handle,
                                              const Region* regions, uint32_t count) const {
  WIRE_TRY_ASSIGN(src, image(src_handle, command));
  WIRE_TRY_ASSIGN(dst, image(dst_handle, command));
  const TexelBlock from = texel_block(src->format);
  const TexelBlock to = texel_block(dst->format);
  if (!from.bytes || from.bytes != to.bytes) return refused(command, "between formats of different texel sizes");
  for (uint32_t n = 0; n < count; ++n) {
    const Region& r = regions[n];
    const VkExtent3D dst_extent{static_cast<uint32_t>(blocks(r.extent.width, from.width) * to.width),
                                static_cast<uint32_t>(blocks(r.extent.height, from.height) * to.height),
                                r.extent.depth};
    if (!layers_fit(*src, r.srcSubresource) || !layers_fit(*dst, r.dstSubresource) ||
        !box_fits(*src, r.srcSubresource.mipLevel, r.srcOffset, r.extent, from) ||
        !box_fits(*dst, r.dstSubresource.mipLevel, r.dstOffset, dst_extent, to))
      return refused(command, "of a region outside its images: region " + std::to_string(n));
  }
  return {};
}

template <typename Region>
wire::Status ResourceShapes::check_blit(const char* command, uint64_t src_handle, uint64_t dst_handle,
                                        const Region* regions, uint32_t count) const {
  WIRE_TRY_ASSIGN(src, image(src_handle, command));
  WIRE_TRY_ASSIGN(dst, image(dst_handle, command));
  for (uint32_t n = 0; n < count; ++n) {
    const Region& r = regions[n];
    if (!layers_fit(*src, r.srcSubresource) || !layers_fit(*dst, r.dstSubresource) ||
        !corners_fit(*src, r.srcSubresource.mipLevel, r.srcOffsets) ||
        !corners_fit(*dst, r.dstSubresource.mipLevel, r.dstOffsets))
      return refused(command, "of a region outside its images: region " + std::to_string(n));
  }
  return {};
}

wire::Status ResourceShapes::check_clear(const char* command, uint64_t handle, const VkImageSubresourceRange* ranges,
                                         uint32_t count) const {
  WIRE_TRY_ASSIGN(i, image(handle, command));
  for (uint32_t n = 0; n < count; ++n)
    if (!range_fits(*i, ranges[n])) return refused(command, "of levels or layers its image does not have");
  return {};
}

wire::Status ResourceShapes::check_image_command(uint32_t opcode, const void* args) const {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdCopyBufferToImage: {
      const auto& a = *static_cast<const VkArgs_vkCmdCopyBufferToImage*>(args);
      return check_buffer_image("vkCmdCopyBufferToImage", raw_handle(a.srcBuffer), raw_handle(a.dstImage), a.pRegions,
                                a.regionCount);
    }
    case VkOp::vkCmdCopyBufferToImage2: {
      const auto& i = *static_cast<const VkArgs_vkCmdCopyBufferToImage2*>(args)->pCopyBufferToImageInfo;
      return check_buffer_image("vkCmdCopyBufferToImage2", raw_handle(i.srcBuffer), raw_handle(i.dstImage), i.pRegions,
                                i.regionCount);
    }
    case VkOp::vkCmdCopyImageToBuffer: {
      const auto& a = *static_cast<const VkArgs_vkCmdCopyImageToBuffer*>(args);
      return check_buffer_image("vkCmdCopyImageToBuffer", raw_handle(a.dstBuffer), raw_handle(a.srcImage), a.pRegions,
                                a.regionCount);
    }
    case VkOp::vkCmdCopyImageToBuffer2: {
      const auto& i = *static_cast<const VkArgs_vkCmdCopyImageToBuffer2*>(args)->pCopyImageToBufferInfo;
      return check_buffer_image("vkCmdCopyImageToBuffer2", raw_handle(i.dstBuffer), raw_handle(i.srcImage), i.pRegions,
                                i.regionCount);
    }
    case VkOp::vkCmdCopyImage: {
      const auto& a = *static_cast<const VkArgs_vkCmdCopyImage*>(args);
      return check_image_copy("vkCmdCopyImage", raw_handle(a.srcImage), raw_handle(a.dstImage), a.pRegions,
                              a.regionCount);
    }
    case VkOp::vkCmdCopyImage2: {
      const auto& i = *static_cast<const VkArgs_vkCmdCopyImage2*>(args)->pCopyImageInfo;
      return check_image_copy("vkCmdCopyImage2", raw_handle(i.srcImage), raw_handle(i.dstImage), i.pRegions,
                              i.regionCount);
    }
    case VkOp::vkCmdResolveImage: {
      const auto& a = *static_cast<const VkArgs_vkCmdResolveImage*>(args);
      return check_image_copy("vkCmdResolveImage", raw_handle(a.srcImage), raw_handle(a.dstImage), a.pRegions,
                              a.regionCount);
    }
    case VkOp::vkCmdResolveImage2: {
      const auto& i = *static_cast<const VkArgs_vkCmdResolveImage2*>(args)->pResolveImageInfo;
      return check_image_copy("vkCmdResolveImage2", raw_handle(i.srcImage), raw_handle(i.dstImage), i.pRegions,
                              i.regionCount);
    }
    case VkOp::vkCmdBlitImage: {
      const auto& a = *static_cast<const VkArgs_vkCmdBlitImage*>(args);
      return check_blit("vkCmdBlitImage", raw_handle(a.srcImage), raw_handle(a.dstImage), a.pRegions, a.regionCount);
    }
    case VkOp::vkCmdBlitImage2: {
      const auto& i = *static_cast<const VkArgs_vkCmdBlitImage2*>(args)->pBlitImageInfo;
      return check_blit("vkCmdBlitImage2", raw_handle(i.srcImage), raw_handle(i.dstImage), i.pRegions, i.regionCount);
    }
    case VkOp::vkCmdClearColorImage: {
      const auto& a = *static_cast<const VkArgs_vkCmdClearColorImage*>(args);
      return check_clear("vkCmdClearColorImage", raw_handle(a.image), a.pRanges, a.rangeCount);
    }
    case VkOp::vkCmdClearDepthStencilImage: {
      const auto& a = *static_cast<const VkArgs_vkCmdClearDepthStencilImage*>(args);
      return check_clear("vkCmdClearDepthStencilImage", raw_handle(a.image), a.pRanges, a.rangeCount);
    }
    default:
      return {};
  }
}

// A view names levels and layers of its image, or a range of its buffer,
// bound to memory (VUID-vkCreateImageView-image-01020,
// VUID-VkBufferViewCreateInfo-buffer-00935): lavapipe rendered into a view
// of an image without memory through null.
wire::Status ResourceShapes::check_views(uint32_t opcode, const void* args) const {
  if (static_cast<VkOp>(opcode) == VkOp::vkCreateImageView) {
    const VkImageViewCreateInfo& info = *static_cast<const VkArgs_vkCreateImageView*>(args)->pCreateInfo;
    WIRE_TRY_ASSIGN(viewed, image(raw_handle(info.image), "vkCreateImageView"));
    if (!range_fits(*viewed, info.subresourceRange))
      return refused("vkCreateImageView", "of levels or layers its image does not have");
    return {};
  }
  const VkBufferViewCreateInfo& info = *static_cast<const VkArgs_vkCreateBufferView*>(args)->pCreateInfo;
  WIRE_TRY_ASSIGN(viewed, buffer(raw_handle(info.buffer), "vkCreateBufferView"));
  const uint64_t size = viewed->size;
  if (info.offset >= size || (info.range != VK_WHOLE_SIZE && (!info.range || !fits(info.offset, info.range, size))))
    return refused("vkCreateBufferView", "of a range past its buffer's end");
  return {};
}

// The layout of one subresource of a linear image (section 12.4 "Image
// Layout"): of linear tiling (VUID-vkGetImageSubresourceLayout-image-07790),
// one aspect of its format (-aspectMask-00997, -format-08886 and the
// depth, stencil and plane rules beside it), a level and a layer it has
// (-mipLevel-01716, -arrayLayer-01717). Drivers index their level and
// layer tables by them; no memory need be bound.
wire::Status ResourceShapes::check_subresource_layout(uint32_t, const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkGetImageSubresourceLayout*>(args);
  const VkImageSubresource& s = *a.pSubresource;
  auto it = images_.find(raw_handle(a.image));
  if (it == images_.end() || it->second.tiling != VK_IMAGE_TILING_LINEAR)
    return refused("vkGetImageSubresourceLayout", "of an image not of linear tiling");
  const ImageShape& image = it->second;
  const uint32_t aspect = s.aspectMask;
  if (!aspect || (aspect & (aspect - 1)) || !(aspect & format_aspects(image.format)))
    return refused("vkGetImageSubresourceLayout", "of an aspect other than one of its image's format");
  if (s.mipLevel >= image.mips || s.arrayLayer >= image.layers)
    return refused("vkGetImageSubresourceLayout", "of a level or layer its image does not have");
  return {};
}

}  // namespace host::vk
