// vkUpdateDescriptorSetWithTemplate and vkCmdPushDescriptorSetWithTemplateKHR:
// pData is laid out as the template's entries say, which only the guest
// knows (from the template's create info). The guest reads the descriptors
// out of it and sends an ordinary vkUpdateDescriptorSets or
// vkCmdPushDescriptorSetKHR, whose every pointer and count the host checks.
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "vk/entry.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

struct Template {
  std::vector<VkDescriptorUpdateTemplateEntry> entries;
  VkPipelineBindPoint bind_point;  // of a template for pushed descriptors
};

struct Templates {
  std::mutex mu;
  std::unordered_map<uint64_t, Template> by_id;
};

Templates& templates() {
  static Templates* t = new Templates;
  return *t;
}

uint64_t id_of(VkDescriptorUpdateTemplate t) { return reinterpret_cast<uint64_t>(t); }

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL create_template(VkDevice device, const VkDescriptorUpdateTemplateCreateInfo* info,
                                              const VkAllocationCallbacks* allocator,
                                              VkDescriptorUpdateTemplate* out) {
  VkArgs_vkCreateDescriptorUpdateTemplate a{device, info, allocator, out};
  const VkResult r = as_result(run_generated(VkOp::vkCreateDescriptorUpdateTemplate, a));
  if (r == VK_SUCCESS) {
    std::lock_guard lock(templates().mu);
    templates().by_id[id_of(*out)] = {{info->pDescriptorUpdateEntries,
                                       info->pDescriptorUpdateEntries + info->descriptorUpdateEntryCount},
                                      info->pipelineBindPoint};
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL destroy_template(VkDevice device, VkDescriptorUpdateTemplate t,
                                           const VkAllocationCallbacks* allocator) {
  {
    std::lock_guard lock(templates().mu);
    templates().by_id.erase(id_of(t));
  }
  VkArgs_vkDestroyDescriptorUpdateTemplate a{device, t, allocator};
  run_generated(VkOp::vkDestroyDescriptorUpdateTemplate, a);
}

namespace {

// One entry's descriptors, element i at offset + i * stride in pData.
template <typename T>
const T* gather(const VkDescriptorUpdateTemplateEntry& e, const std::byte* data, std::vector<std::vector<T>>& keep) {
  std::vector<T>& items = keep.emplace_back(e.descriptorCount);
  for (uint32_t i = 0; i < e.descriptorCount; ++i) std::memcpy(&items[i], data + e.offset + i * e.stride, sizeof(T));
  return items.data();
}

// What the writes point to lives until they are sent.
struct WriteData {
  std::vector<std::vector<VkDescriptorImageInfo>> images;
  std::vector<std::vector<VkDescriptorBufferInfo>> buffers;
  std::vector<std::vector<VkBufferView>> views;
  std::vector<VkWriteDescriptorSetInlineUniformBlock> blocks;
};

VkWriteDescriptorSet write_of(VkDescriptorSet set, const VkDescriptorUpdateTemplateEntry& e, const std::byte* data,
                              WriteData& keep) {
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  w.dstSet = set;
  w.dstBinding = e.dstBinding;
  w.dstArrayElement = e.dstArrayElement;
  w.descriptorCount = e.descriptorCount;
  w.descriptorType = e.descriptorType;
  switch (e.descriptorType) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      w.pImageInfo = gather(e, data, keep.images);
      break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      w.pTexelBufferView = gather(e, data, keep.views);
      break;
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK:
      // descriptorCount is the block's size in bytes, all at offset.
      keep.blocks.push_back({VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr, e.descriptorCount,
                             data + e.offset});
      w.pNext = &keep.blocks.back();
      break;
    default:  // uniform and storage buffers, dynamic or not
      w.pBufferInfo = gather(e, data, keep.buffers);
      break;
  }
  return w;
}

// The template's writes out of `data`, into `set` (null for a push), and
// what they point to; false for a template the guest does not have.
bool writes_of(VkDescriptorUpdateTemplate t, VkDescriptorSet set, const void* data, std::vector<VkWriteDescriptorSet>& writes,
               WriteData& keep, VkPipelineBindPoint* bind_point = nullptr) {
  Template found;
  {
    std::lock_guard lock(templates().mu);
    auto it = templates().by_id.find(id_of(t));
    if (it == templates().by_id.end()) return false;
    found = it->second;
  }
  if (bind_point) *bind_point = found.bind_point;
  keep.blocks.reserve(found.entries.size());  // writes point into it
  for (const auto& e : found.entries)
    if (e.descriptorCount) writes.push_back(write_of(set, e, static_cast<const std::byte*>(data), keep));
  return true;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL update_with_template(VkDevice device, VkDescriptorSet set, VkDescriptorUpdateTemplate t,
                                               const void* data) {
  WriteData keep;
  std::vector<VkWriteDescriptorSet> writes;
  if (!writes_of(t, set, data, writes, keep)) return;
  VkArgs_vkUpdateDescriptorSets a{device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr};
  run_generated(VkOp::vkUpdateDescriptorSets, a);
}

VKAPI_ATTR void VKAPI_CALL push_with_template(VkCommandBuffer cb, VkDescriptorUpdateTemplate t,
                                             VkPipelineLayout layout, uint32_t set, const void* data) {
  WriteData keep;
  std::vector<VkWriteDescriptorSet> writes;
  VkPipelineBindPoint bind_point{};
  if (!writes_of(t, VK_NULL_HANDLE, data, writes, keep, &bind_point)) return;
  VkArgs_vkCmdPushDescriptorSetKHR a{cb, bind_point, layout, set, static_cast<uint32_t>(writes.size()), writes.data()};
  run_generated(VkOp::vkCmdPushDescriptorSetKHR, a);
}

}  // namespace icd::vk
