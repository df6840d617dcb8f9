// Descriptor set layouts, pools and sets, written with vkUpdateDescriptorSets
// (core 1.0: update templates are not used).
#pragma once

#include <vulkan/vulkan.h>

#include <initializer_list>

#include "handle.h"

namespace vkbench {

struct BindingDesc {
  uint32_t binding;
  VkDescriptorType type;
  VkShaderStageFlags stages;
};

DescriptorSetLayout make_set_layout(VkDevice device, std::initializer_list<BindingDesc> bindings);

// A pool for `max_sets` sets of descriptors of one type.
DescriptorPool make_descriptor_pool(VkDevice device, VkDescriptorType type, uint32_t max_sets);

VkDescriptorSet allocate_set(VkDevice device, VkDescriptorPool pool, VkDescriptorSetLayout layout);

void write_image(VkDevice device, VkDescriptorSet set, uint32_t binding, VkImageView view,
                 VkSampler sampler);
void write_storage_buffer(VkDevice device, VkDescriptorSet set, uint32_t binding, VkBuffer buffer);

// Clamped at the edges, without mipmaps.
Sampler make_sampler(VkDevice device, VkFilter filter);

}  // namespace vkbench
