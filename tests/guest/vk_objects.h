// Objects the Vulkan misuse tests name: buffers and images with memory,
// command buffers that are recording, a compute pipeline of add_one.comp.
#pragma once

#include <vulkan/vulkan.h>

#include "add_one_comp.h"
#include "vk_device.h"

namespace guesttest {

inline uint32_t first_type(uint32_t type_bits) { return type_bits ? __builtin_ctz(type_bits) : 0; }

inline VkDeviceMemory memory_of(VkDevice device, VkDeviceSize size, uint32_t type) {
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = size;
  info.memoryTypeIndex = type;
  return created(device, info, vkAllocateMemory);
}

// `size` bytes of memory of the first type `need` allows.
inline VkDeviceMemory memory_for(VkDevice device, const VkMemoryRequirements& need,
                                 VkDeviceSize size) {
  return memory_of(device, size, first_type(need.memoryTypeBits));
}

inline VkMemoryRequirements requirements_of(VkDevice device, VkBuffer buffer) {
  VkMemoryRequirements need{};
  vkGetBufferMemoryRequirements(device, buffer, &need);
  return need;
}

inline VkMemoryRequirements requirements_of(VkDevice device, VkImage image) {
  VkMemoryRequirements need{};
  vkGetImageMemoryRequirements(device, image, &need);
  return need;
}

// Binds `object` (a buffer or an image) to memory of its own, all it
// needs; that memory.
template <typename Object, typename Bind>
VkDeviceMemory bind_own_memory(VkDevice device, Object object, Bind bind) {
  const VkMemoryRequirements need = requirements_of(device, object);
  const VkDeviceMemory memory = memory_for(device, need, need.size);
  bind(device, object, memory, 0);
  return memory;
}
inline VkDeviceMemory bind_own_memory(VkDevice device, VkBuffer buffer) {
  return bind_own_memory(device, buffer, vkBindBufferMemory);
}
inline VkDeviceMemory bind_own_memory(VkDevice device, VkImage image) {
  return bind_own_memory(device, image, vkBindImageMemory);
}

inline VkBuffer bare_buffer(VkDevice device, VkDeviceSize size) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
               VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
  return created(device, info, vkCreateBuffer);
}

// A buffer of `size` bytes with memory of its own bound.
inline VkBuffer buffer_of(VkDevice device, VkDeviceSize size) {
  VkBuffer buffer = bare_buffer(device, size);
  bind_own_memory(device, buffer);
  return buffer;
}

// A 2D colour image, no memory bound.
inline VkImage bare_image(VkDevice device, uint32_t width, uint32_t height, uint32_t mips = 1, uint32_t layers = 1,
                          VkFormat format = VK_FORMAT_R8G8B8A8_UNORM) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {width, height, 1};
  info.mipLevels = mips;
  info.arrayLayers = layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  return created(device, info, vkCreateImage);
}

// The same with memory bound.
inline VkImage image_of(VkDevice device, uint32_t width, uint32_t height, uint32_t mips = 1, uint32_t layers = 1,
                        VkFormat format = VK_FORMAT_R8G8B8A8_UNORM) {
  VkImage image = bare_image(device, width, height, mips, layers, format);
  bind_own_memory(device, image);
  return image;
}

// A command buffer of a pool of its own (given in `made_in` when asked), never begun.
inline VkCommandBuffer new_command_buffer(VkDevice device, VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          VkCommandPool* made_in = nullptr) {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(device, &pool_info, nullptr, &pool);
  if (made_in) *made_in = pool;
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = level;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  vkAllocateCommandBuffers(device, &alloc, &cb);
  return cb;
}

inline VkCommandBuffer recording_buffer(VkDevice device) {
  VkCommandBuffer cb = new_command_buffer(device);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);
  return cb;
}

// Submits `cb` on the device's first queue, with `fence` if one is given.
inline void submit(VkDevice device, VkCommandBuffer cb, VkFence fence = VK_NULL_HANDLE) {
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &cb;
  vkQueueSubmit(queue, 1, &info, fence);
}

// Ends `cb` and submits it on the device's first queue.
inline void end_and_submit(VkDevice device, VkCommandBuffer cb) {
  vkEndCommandBuffer(cb);
  submit(device, cb);
}

inline VkPipelineLayout layout_of(VkDevice device, VkDescriptorSetLayout set_layout) {
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout;
  return created(device, info, vkCreatePipelineLayout);
}

inline VkPipeline add_one_pipeline(VkDevice device, VkPipelineLayout layout) {
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = sizeof add_one_comp;
  module_info.pCode = add_one_comp;
  VkShaderModule module;
  vkCreateShaderModule(device, &module_info, nullptr, &module);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                module, "main", nullptr};
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  return pipeline;
}

// A descriptor set of `layout` from a pool of its own.
inline VkDescriptorSet set_of(VkDevice device, VkDescriptorSetLayout layout) {
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 8},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8},
                                  {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 8},
                                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 4;
  pool_info.poolSizeCount = 4;
  pool_info.pPoolSizes = sizes;
  VkDescriptorPool pool;
  vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  vkAllocateDescriptorSets(device, &alloc, &set);
  return set;
}

inline VkBufferImageCopy buffer_image_region(uint32_t width, uint32_t height, int32_t x = 0, int32_t y = 0,
                                             uint32_t mip = 0) {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 0, 1};
  region.imageOffset = {x, y, 0};
  region.imageExtent = {width, height, 1};
  return region;
}

}  // namespace guesttest
