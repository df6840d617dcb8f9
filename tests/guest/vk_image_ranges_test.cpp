// Image levels, layers and regions past the image they name, and buffer
// bytes a buffer-image copy would reach past its buffer: refused before
// the driver indexes its level tables or copies texel rows by them.
#include <cstdint>
#include <cstdlib>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;

TEST(VulkanImageRanges, CopiesInsideTheirImagesRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkImage a = image_of(device, 64, 64, 2), b = image_of(device, 64, 64, 2);
    VkBuffer buffer = buffer_of(device, 64 * 64 * 4);
    VkCommandBuffer cb = recording_buffer(device);
    VkBufferImageCopy region = buffer_image_region(32, 32, 0, 0, 1);
    vkCmdCopyBufferToImage(cb, buffer, a, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    VkImageCopy copy{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                     {64, 64, 1}};
    vkCmdCopyImage(cb, a, VK_IMAGE_LAYOUT_GENERAL, b, VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
    VkBufferImageCopy back = buffer_image_region(64, 64);
    vkCmdCopyImageToBuffer(cb, b, VK_IMAGE_LAYOUT_GENERAL, buffer, 1, &back);
    end_and_submit(device, cb);
  });
}

TEST(VulkanImageRanges, UploadToARegionPastTheImage) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBufferImageCopy region = buffer_image_region(32, 32, 48, 0);
    vkCmdCopyBufferToImage(recording_buffer(device), buffer_of(device, 1 << 16), image_of(device, 64, 64),
                           VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  });
}

TEST(VulkanImageRanges, UploadFromMoreThanTheBufferHolds) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBufferImageCopy region = buffer_image_region(64, 64);
    vkCmdCopyBufferToImage(recording_buffer(device), buffer_of(device, 4096), image_of(device, 64, 64),
                           VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  });
}

TEST(VulkanImageRanges, ReadBackPastTheBuffersEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBufferImageCopy region = buffer_image_region(64, 64);
    region.bufferOffset = 1024;
    vkCmdCopyImageToBuffer(recording_buffer(device), image_of(device, 64, 64), VK_IMAGE_LAYOUT_GENERAL,
                           buffer_of(device, 64 * 64 * 4), 1, &region);
  });
}

TEST(VulkanImageRanges, ReadBackOfRowsLongerThanTheBufferHolds) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBufferImageCopy region = buffer_image_region(16, 16);
    region.bufferRowLength = 1u << 30;
    vkCmdCopyImageToBuffer(recording_buffer(device), image_of(device, 64, 64), VK_IMAGE_LAYOUT_GENERAL,
                           buffer_of(device, 1 << 16), 1, &region);
  });
}

TEST(VulkanImageRanges, UploadToAMipLevelTheImageLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBufferImageCopy region = buffer_image_region(1, 1, 0, 0, 9);
    vkCmdCopyBufferToImage(recording_buffer(device), buffer_of(device, 4096), image_of(device, 64, 64),
                           VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  });
}

TEST(VulkanImageRanges, CopyOfLayersTheImageLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkImageCopy copy{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 4}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 4}, {0, 0, 0},
                     {16, 16, 1}};
    vkCmdCopyImage(recording_buffer(device), image_of(device, 16, 16, 1, 2), VK_IMAGE_LAYOUT_GENERAL,
                   image_of(device, 16, 16, 1, 4), VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
  });
}

TEST(VulkanImageRanges, CopyBetweenFormatsOfOtherTexelSizes) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkImageCopy copy{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                     {16, 16, 1}};
    vkCmdCopyImage(recording_buffer(device), image_of(device, 16, 16, 1, 1, VK_FORMAT_R32G32B32A32_SFLOAT),
                   VK_IMAGE_LAYOUT_GENERAL, image_of(device, 16, 16), VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
  });
}

// A copy of one level of a 16x16 BC1 image into another's: its levels 3
// and 4 (2x2 and 1x1 texels) are one 4x4 block each, which zink copies
// with the level's own extent.
void copy_bc1_level(VkDevice device, uint32_t mip, VkExtent3D extent) {
  VkImageCopy copy{{VK_IMAGE_ASPECT_COLOR_BIT, mip, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, mip, 0, 1}, {0, 0, 0},
                   extent};
  VkCommandBuffer cb = recording_buffer(device);
  vkCmdCopyImage(cb, image_of(device, 16, 16, 5, 1, VK_FORMAT_BC1_RGBA_UNORM_BLOCK), VK_IMAGE_LAYOUT_GENERAL,
                 image_of(device, 16, 16, 5, 1, VK_FORMAT_BC1_RGBA_UNORM_BLOCK), VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
  end_and_submit(device, cb);
}

TEST(VulkanImageRanges, CopiesOfCompressedLevelsSmallerThanABlockRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    copy_bc1_level(device, 3, {2, 2, 1});
    copy_bc1_level(device, 4, {1, 1, 1});
  });
}

TEST(VulkanImageRanges, CopyOfACompressedLevelPastItsBlock) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { copy_bc1_level(device, 3, {8, 8, 1}); });
}

TEST(VulkanImageRanges, BlitFromCornersOutsideTheImage) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkImageBlit blit{};
    blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = {4096, 4096, 1};
    blit.dstOffsets[1] = {16, 16, 1};
    vkCmdBlitImage(recording_buffer(device), image_of(device, 16, 16), VK_IMAGE_LAYOUT_GENERAL,
                   image_of(device, 16, 16), VK_IMAGE_LAYOUT_GENERAL, 1, &blit, VK_FILTER_NEAREST);
  });
}

TEST(VulkanImageRanges, ClearOfLevelsTheImageLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkClearColorValue colour{};
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 1, 40, 0, 1};
    vkCmdClearColorImage(recording_buffer(device), image_of(device, 16, 16, 2), VK_IMAGE_LAYOUT_GENERAL, &colour, 1,
                         &range);
  });
}

// A view of `image`'s layers [first, first + count).
void view_of(VkDevice device, VkImage image, uint32_t first_layer, uint32_t layers) {
  VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, first_layer, layers};
  VkImageView view;
  vkCreateImageView(device, &info, nullptr, &view);
}

// A texel view of `buffer`'s bytes [offset, offset + range).
void buffer_view_of(VkDevice device, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
  VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  info.buffer = buffer;
  info.format = VK_FORMAT_R32_SFLOAT;
  info.offset = offset;
  info.range = range;
  VkBufferView view;
  vkCreateBufferView(device, &info, nullptr, &view);
}

TEST(VulkanImageRanges, ViewsOfBoundImagesAndBuffersRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    view_of(device, image_of(device, 16, 16, 1, 3), 1, 2);
    buffer_view_of(device, buffer_of(device, 4096), 256, 4096 - 256);
  });
}

TEST(VulkanImageRanges, ViewOfLayersTheImageLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { view_of(device, image_of(device, 16, 16), 3, 2); });
}

TEST(VulkanImageRanges, BufferViewPastItsBuffer) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    buffer_view_of(device, buffer_of(device, 4096), 256, 4096);
  });
}

// Views of what has no memory (VUID-vkCreateImageView-image-01020): a
// render pass into one made lavapipe write through null.
TEST(VulkanImageRanges, ViewOfAnImageWithoutMemory) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { view_of(device, bare_image(device, 16, 16), 0, 1); });
}

TEST(VulkanImageRanges, BufferViewOfABufferWithoutMemory) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    buffer_view_of(device, bare_buffer(device, 4096), 0, 256);
  });
}

// The layout of a subresource (found by the Vulkan session fuzzer: lavapipe
// read past its layer table for array layer 8 of a 2-layer image). Only a
// linear image has one the program may ask for.

// A 64x64 RGBA8 image of one level, no memory bound (none is needed).
VkImage unbound_image(VkDevice device, VkImageTiling tiling = VK_IMAGE_TILING_LINEAR, uint32_t layers = 1) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.extent = {64, 64, 1};
  info.mipLevels = 1;
  info.arrayLayers = layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = tiling;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  return guesttest::created(device, info, vkCreateImage);
}

VkSubresourceLayout subresource_layout(VkDevice device, VkImage image, VkImageAspectFlags aspect, uint32_t mip,
                                      uint32_t layer) {
  const VkImageSubresource subresource{aspect, mip, layer};
  VkSubresourceLayout layout{};
  vkGetImageSubresourceLayout(device, image, &subresource, &layout);
  return layout;
}

TEST(VulkanImageRanges, LayoutOfALinearImagesSubresourceRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkSubresourceLayout layout =
        subresource_layout(device, unbound_image(device), VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
    if (layout.rowPitch < 64 * 4 || layout.size < 64 * layout.rowPitch) std::exit(7);
  });
}

TEST(VulkanImageRanges, LayoutOfALayerTheImageLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    subresource_layout(device, unbound_image(device), VK_IMAGE_ASPECT_COLOR_BIT, 0, 8);
  });
}

TEST(VulkanImageRanges, LayoutOfALevelTheImageLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    subresource_layout(device, unbound_image(device), VK_IMAGE_ASPECT_COLOR_BIT, 1, 0);
  });
}

TEST(VulkanImageRanges, LayoutOfAnAspectTheFormatLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    subresource_layout(device, unbound_image(device), VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0);
  });
}

TEST(VulkanImageRanges, LayoutOfTwoAspectsAtOnce) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    subresource_layout(device, unbound_image(device), VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0);
  });
}

TEST(VulkanImageRanges, LayoutOfAnOptimalImage) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    subresource_layout(device, unbound_image(device, VK_IMAGE_TILING_OPTIMAL, 2), VK_IMAGE_ASPECT_COLOR_BIT, 0, 1);
  });
}

}  // namespace
