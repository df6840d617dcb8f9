// Buffers and images with their memory, and the barriers between their uses.
#pragma once

#include <vulkan/vulkan.h>

#include "context.h"
#include "handle.h"

namespace vkbench {

// Members go in the reverse of their order: a buffer or image before its
// memory, a view before its image.
struct BufferResource {
  Memory memory;
  Buffer buffer;
  VkDeviceSize size = 0;
  void* mapped = nullptr;  // host-visible buffers stay mapped for their life
  bool coherent = false;

  // Make host writes visible to the device, and device writes to the host,
  // where the memory is not coherent (coherent memory needs neither).
  void flush(const Context& context) const;
  void invalidate(const Context& context) const;
};

enum class Access { kDevice, kHostWrite, kHostRead };

// A buffer in device-local memory, or mapped host memory (coherent where the
// device has it; cached too for reading back).
BufferResource create_buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage,
                             Access access);

struct ImageResource {
  Memory memory;
  Image image;
  ImageView view;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
};

ImageResource create_image(const Context& context, VkFormat format, VkExtent2D extent,
                           VkImageUsageFlags usage, VkImageAspectFlags aspect);

struct ImageUse {
  VkImageLayout layout;
  VkPipelineStageFlags stage;
  VkAccessFlags access;
};

// Moves a whole single-level colour image from one use to the next.
void image_barrier(VkCommandBuffer cmd, VkImage image, const ImageUse& from, const ImageUse& to);

}  // namespace vkbench
