// Rendering multisampled into single-sampled attachments
// (VK_EXT_multisampled_render_to_single_sampled): the driver makes a
// multisampled copy of each attachment at the guest's sample count, so the
// count is one the device renders at and a view is named once; a clear at
// 4 samples is resolved into the single-sampled image.
#include <cstdlib>
#include <cstring>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using guesttest::expect_accepted_with;
using guesttest::expect_refused_with;

const std::vector<const char*> kSingleSampled = {VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME};
constexpr uint32_t kSide = 16;

// A single-sampled colour image that may be rendered to at more samples, with memory, and its view.
VkImageView single_sampled_view(VkDevice device, VkImage* image_out = nullptr) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.extent = {kSide, kSide, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image = VK_NULL_HANDLE;
  vkCreateImage(device, &info, nullptr, &image);
  guesttest::bind_own_memory(device, image);
  VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = info.format;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  vkCreateImageView(device, &view_info, nullptr, &view);
  if (image_out) *image_out = image;
  return view;
}

// Begins rendering that clears `views` at `samples` into single-sampled attachments.
void begin_single_sampled(VkCommandBuffer cb, const std::vector<VkImageView>& views, VkSampleCountFlagBits samples) {
  VkMultisampledRenderToSingleSampledInfoEXT single{VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT};
  single.multisampledRenderToSingleSampledEnable = VK_TRUE;
  single.rasterizationSamples = samples;
  std::vector<VkRenderingAttachmentInfo> colors;
  for (VkImageView view : views) {
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.25f, 0.5f, 0.75f, 1.0f}};
    colors.push_back(color);
  }
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO, &single};
  rendering.renderArea.extent = {kSide, kSide};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = static_cast<uint32_t>(colors.size());
  rendering.pColorAttachments = colors.data();
  vkCmdBeginRendering(cb, &rendering);
}

void to_layout(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &barrier);
}

TEST(VulkanSingleSampledRendering, ClearAtFourSamplesIsResolvedIntoTheImage) {
  expect_accepted_with(kSingleSampled, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = single_sampled_view(device, &image);
    VkBuffer pixels = guesttest::bare_buffer(device, kSide * kSide * 4);
    VkDeviceMemory memory = guesttest::bind_own_memory(device, pixels);

    VkCommandBuffer cb = guesttest::recording_buffer(device);
    to_layout(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    begin_single_sampled(cb, {view}, VK_SAMPLE_COUNT_4_BIT);
    vkCmdEndRendering(cb);
    to_layout(cb, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    const VkBufferImageCopy region = guesttest::buffer_image_region(kSide, kSide);
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels, 1, &region);
    guesttest::end_and_submit(device, cb);
    vkDeviceWaitIdle(device);
    unsigned char* bytes = nullptr;
    if (vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&bytes)) != VK_SUCCESS) std::exit(8);
    const unsigned char* last = bytes + (kSide * kSide - 1) * 4;  // a child's exit code is what its case checks
    if (std::abs(last[0] - 64) > 1 || std::abs(last[1] - 128) > 1 || std::abs(last[2] - 191) > 1 || last[3] != 255)
      std::exit(9);
  });
}

TEST(VulkanSingleSampledRendering, AtASampleCountTheDeviceDoesNotRenderAt) {
  // The driver allocates a copy of each attachment at the count it is given.
  expect_refused_with(kSingleSampled, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = guesttest::recording_buffer(device);
    begin_single_sampled(cb, {single_sampled_view(device)}, static_cast<VkSampleCountFlagBits>(0x40000000));
    vkCmdEndRendering(cb);
    guesttest::end_and_submit(device, cb);
  });
}

TEST(VulkanSingleSampledRendering, NamingAViewTwice) {
  // The driver keeps one copy in the view and frees it once per attachment.
  expect_refused_with(kSingleSampled, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkImageView view = single_sampled_view(device);
    VkCommandBuffer cb = guesttest::recording_buffer(device);
    begin_single_sampled(cb, {view, view}, VK_SAMPLE_COUNT_4_BIT);
    vkCmdEndRendering(cb);
    guesttest::end_and_submit(device, cb);
  });
}

TEST(VulkanSingleSampledRendering, OnADeviceWithoutTheExtension) {
  expect_refused_with({}, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = guesttest::recording_buffer(device);
    begin_single_sampled(cb, {single_sampled_view(device)}, VK_SAMPLE_COUNT_4_BIT);
    vkCmdEndRendering(cb);
    guesttest::end_and_submit(device, cb);
  });
}

}  // namespace
