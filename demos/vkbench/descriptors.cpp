#include "descriptors.h"

#include <vector>

#include "check.h"

namespace vkbench {

DescriptorSetLayout make_set_layout(VkDevice device, std::initializer_list<BindingDesc> bindings) {
  std::vector<VkDescriptorSetLayoutBinding> list;
  for (const BindingDesc& b : bindings) list.push_back({b.binding, b.type, 1, b.stages, nullptr});
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = uint32_t(list.size());
  info.pBindings = list.data();
  VkDescriptorSetLayout layout;
  check(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout),
        "vkCreateDescriptorSetLayout");
  return DescriptorSetLayout(device, layout);
}

DescriptorPool make_descriptor_pool(VkDevice device, VkDescriptorType type, uint32_t max_sets) {
  VkDescriptorPoolSize size{type, max_sets};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = max_sets;
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  VkDescriptorPool pool;
  check(vkCreateDescriptorPool(device, &info, nullptr, &pool), "vkCreateDescriptorPool");
  return DescriptorPool(device, pool);
}

VkDescriptorSet allocate_set(VkDevice device, VkDescriptorPool pool, VkDescriptorSetLayout layout) {
  VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = pool;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout;
  VkDescriptorSet set;
  check(vkAllocateDescriptorSets(device, &info, &set), "vkAllocateDescriptorSets");
  return set;
}

void write_image(VkDevice device, VkDescriptorSet set, uint32_t binding, VkImageView view,
                 VkSampler sampler) {
  VkDescriptorImageInfo image{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

void write_storage_buffer(VkDevice device, VkDescriptorSet set, uint32_t binding, VkBuffer buffer) {
  VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &info;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

Sampler make_sampler(VkDevice device, VkFilter filter) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = filter;
  info.minFilter = filter;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.maxLod = 0.0f;
  VkSampler sampler;
  check(vkCreateSampler(device, &info, nullptr, &sampler), "vkCreateSampler");
  return Sampler(device, sampler);
}

}  // namespace vkbench
