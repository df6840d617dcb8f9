#include "resources.h"

#include "check.h"

namespace vkbench {
namespace {

uint32_t buffer_memory_type(const Context& context, uint32_t type_bits, Access access) {
  const VkMemoryPropertyFlags visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  uint32_t type = UINT32_MAX;
  switch (access) {
    case Access::kDevice:
      type = context.find_memory_type(type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (type == UINT32_MAX) type = context.find_memory_type(type_bits, 0);
      break;
    case Access::kHostWrite:
      type = context.find_memory_type(type_bits, visible | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
      break;
    case Access::kHostRead:
      type = context.find_memory_type(type_bits, visible | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
      break;
  }
  // Every device has a host-visible type; it may lack coherence or caching.
  if (type == UINT32_MAX && access != Access::kDevice) {
    type = context.find_memory_type(type_bits, visible);
  }
  if (type == UINT32_MAX) fail("no memory type for a buffer (types 0x%x)", type_bits);
  return type;
}

}  // namespace

void BufferResource::flush(const Context& context) const {
  if (coherent || !mapped) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory.get();
  range.size = VK_WHOLE_SIZE;
  check(vkFlushMappedMemoryRanges(context.device(), 1, &range), "vkFlushMappedMemoryRanges");
}

void BufferResource::invalidate(const Context& context) const {
  if (coherent || !mapped) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory.get();
  range.size = VK_WHOLE_SIZE;
  check(vkInvalidateMappedMemoryRanges(context.device(), 1, &range),
        "vkInvalidateMappedMemoryRanges");
}

BufferResource create_buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage,
                             Access access) {
  VkDevice device = context.device();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer raw;
  check(vkCreateBuffer(device, &info, nullptr, &raw), "vkCreateBuffer");
  BufferResource out;
  out.buffer = Buffer(device, raw);
  out.size = size;
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, raw, &requirements);
  const uint32_t type = buffer_memory_type(context, requirements.memoryTypeBits, access);
  out.memory = context.allocate(requirements, type);
  check(vkBindBufferMemory(device, raw, out.memory.get(), 0), "vkBindBufferMemory");
  if (access != Access::kDevice) {
    check(vkMapMemory(device, out.memory.get(), 0, VK_WHOLE_SIZE, 0, &out.mapped), "vkMapMemory");
    out.coherent = context.memory_flags(type) & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  }
  return out;
}

ImageResource create_image(const Context& context, VkFormat format, VkExtent2D extent,
                           VkImageUsageFlags usage, VkImageAspectFlags aspect) {
  VkDevice device = context.device();
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage raw;
  check(vkCreateImage(device, &info, nullptr, &raw), "vkCreateImage");
  ImageResource out;
  out.image = Image(device, raw);
  out.format = format;
  out.extent = extent;
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device, raw, &requirements);
  uint32_t type =
      context.find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type == UINT32_MAX) type = context.find_memory_type(requirements.memoryTypeBits, 0);
  out.memory = context.allocate(requirements, type);
  check(vkBindImageMemory(device, raw, out.memory.get(), 0), "vkBindImageMemory");
  VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = raw;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = format;
  view_info.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView view;
  check(vkCreateImageView(device, &view_info, nullptr, &view), "vkCreateImageView");
  out.view = ImageView(device, view);
  return out;
}

void image_barrier(VkCommandBuffer cmd, VkImage image, const ImageUse& from, const ImageUse& to) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = from.access;
  barrier.dstAccessMask = to.access;
  barrier.oldLayout = from.layout;
  barrier.newLayout = to.layout;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, from.stage, to.stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

}  // namespace vkbench
