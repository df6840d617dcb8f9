#include "vk/dispatch_clamps.h"

#include "clamp_dispatch_comp.h"

namespace host::vk {

namespace {

// A slot: the guest's record (16 bytes, 12 used) then the clamped one. A
// dynamic offset of a storage buffer is a multiple of
// minStorageBufferOffsetAlignment, which is at most 256 on any device.
constexpr VkDeviceSize kSlotBytes = 256;
constexpr uint32_t kSlots = 256;
constexpr VkDeviceSize kClampedAt = 16;

uint32_t memory_type(const VkPhysicalDeviceMemoryProperties& props, uint32_t allowed) {
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) && (props.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) return i;
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if (allowed & (1u << i)) return i;
  return UINT32_MAX;
}

void barrier(const HostDispatch& d, VkCommandBuffer cb, VkPipelineStageFlags from, VkAccessFlags written,
             VkPipelineStageFlags to, VkAccessFlags read) {
  const VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, written, read};
  d.vkCmdPipelineBarrier(cb, from, to, 0, 1, &b, 0, nullptr, 0, nullptr);
}

}  // namespace

std::optional<DispatchClamps::Slot> DispatchClamps::clamp(VkDevice device, VkPhysicalDevice gpu, VkCommandBuffer cb,
                                                          VkBuffer buffer, VkDeviceSize offset,
                                                          const std::array<uint32_t, 4>& limits) {
  auto [it, fresh] = devices_.try_emplace(device);
  PerDevice& p = it->second;
  if (fresh && !make(device, gpu, p)) {
    destroy(device, p);
    devices_.erase(it);
    return std::nullopt;
  }
  const VkDeviceSize at = VkDeviceSize{p.next} * kSlotBytes;
  p.next = (p.next + 1) % kSlots;
  // The guest's writes of its record (and earlier reads of this slot) before the copy.
  barrier(d_, cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  const VkBufferCopy copy{offset, at, sizeof(VkDispatchIndirectCommand)};
  d_.vkCmdCopyBuffer(cb, buffer, p.slots, 1, &copy);
  barrier(d_, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  d_.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  const auto dynamic_offset = static_cast<uint32_t>(at);
  d_.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &p.set, 1, &dynamic_offset);
  d_.vkCmdPushConstants(cb, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof limits, limits.data());
  d_.vkCmdDispatch(cb, 1, 1, 1);
  barrier(d_, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
  return Slot{p.slots, at + kClampedAt};
}

bool DispatchClamps::make(VkDevice device, VkPhysicalDevice gpu, PerDevice& p) const {
  if (!make_slots(device, gpu, p) || !make_pipeline(device, p)) return false;
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  if (d_.vkCreateDescriptorPool(device, &pool_info, nullptr, &p.pool) != VK_SUCCESS) return false;
  VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_info.descriptorPool = p.pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &p.set_layout;
  if (d_.vkAllocateDescriptorSets(device, &set_info, &p.set) != VK_SUCCESS) return false;
  const VkDescriptorBufferInfo slot{p.slots, 0, kSlotBytes};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = p.set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
  write.pBufferInfo = &slot;
  d_.vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  return true;
}

bool DispatchClamps::make_slots(VkDevice device, VkPhysicalDevice gpu, PerDevice& p) const {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = kSlotBytes * kSlots;
  info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  if (d_.vkCreateBuffer(device, &info, nullptr, &p.slots) != VK_SUCCESS) return false;
  VkMemoryRequirements needs;
  d_.vkGetBufferMemoryRequirements(device, p.slots, &needs);
  VkPhysicalDeviceMemoryProperties props;
  d_.vkGetPhysicalDeviceMemoryProperties(gpu, &props);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = needs.size;
  alloc.memoryTypeIndex = memory_type(props, needs.memoryTypeBits);
  if (alloc.memoryTypeIndex == UINT32_MAX || d_.vkAllocateMemory(device, &alloc, nullptr, &p.memory) != VK_SUCCESS)
    return false;
  return d_.vkBindBufferMemory(device, p.slots, p.memory, 0) == VK_SUCCESS;
}

bool DispatchClamps::make_pipeline(VkDevice device, PerDevice& p) const {
  const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1,
                                             VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  if (d_.vkCreateDescriptorSetLayout(device, &set_info, nullptr, &p.set_layout) != VK_SUCCESS) return false;
  const VkPushConstantRange limits{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 * sizeof(uint32_t)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &p.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &limits;
  if (d_.vkCreatePipelineLayout(device, &layout_info, nullptr, &p.layout) != VK_SUCCESS) return false;
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = sizeof clamp_dispatch_comp;
  module_info.pCode = clamp_dispatch_comp;
  VkShaderModule module = VK_NULL_HANDLE;
  if (d_.vkCreateShaderModule(device, &module_info, nullptr, &module) != VK_SUCCESS) return false;
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
                "main", nullptr};
  info.layout = p.layout;
  const VkResult made = d_.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline);
  d_.vkDestroyShaderModule(device, module, nullptr);
  return made == VK_SUCCESS;
}

void DispatchClamps::close(VkDevice device) {
  auto it = devices_.find(device);
  if (it == devices_.end()) return;
  destroy(device, it->second);
  devices_.erase(it);
}

void DispatchClamps::destroy(VkDevice device, PerDevice& p) const {
  if (p.pipeline) d_.vkDestroyPipeline(device, p.pipeline, nullptr);
  if (p.layout) d_.vkDestroyPipelineLayout(device, p.layout, nullptr);
  if (p.pool) d_.vkDestroyDescriptorPool(device, p.pool, nullptr);
  if (p.set_layout) d_.vkDestroyDescriptorSetLayout(device, p.set_layout, nullptr);
  if (p.slots) d_.vkDestroyBuffer(device, p.slots, nullptr);
  if (p.memory) d_.vkFreeMemory(device, p.memory, nullptr);
}

}  // namespace host::vk
