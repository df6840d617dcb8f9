// vkUpdateDescriptorSetWithTemplate: pData is laid out as the template's
// entries say, which only the guest knows (from the template's create info).
// The guest reads the descriptors out of it and sends an ordinary
// vkUpdateDescriptorSets, whose every pointer and count the host checks.
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "vk/entry.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

struct Templates {
  std::mutex mu;
  std::unordered_map<uint64_t, std::vector<VkDescriptorUpdateTemplateEntry>> entries;  // by template id
};

Templates& templates() {
  static Templates* t = new Templates;
  return *t;
}

uint64_t id_of(VkDescriptorUpdateTemplate t) { return reinterpret_cast<uint64_t>(t); }

VKAPI_ATTR VkResult VKAPI_CALL create_template(VkDevice device, const VkDescriptorUpdateTemplateCreateInfo* info,
                                              const VkAllocationCallbacks* allocator,
                                              VkDescriptorUpdateTemplate* out) {
  VkArgs_vkCreateDescriptorUpdateTemplate a{device, info, allocator, out};
  const VkResult r = as_result(run_generated(VkOp::vkCreateDescriptorUpdateTemplate, a));
  if (r == VK_SUCCESS) {
    std::lock_guard lock(templates().mu);
    templates().entries[id_of(*out)].assign(info->pDescriptorUpdateEntries,
                                            info->pDescriptorUpdateEntries + info->descriptorUpdateEntryCount);
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL destroy_template(VkDevice device, VkDescriptorUpdateTemplate t,
                                           const VkAllocationCallbacks* allocator) {
  {
    std::lock_guard lock(templates().mu);
    templates().entries.erase(id_of(t));
  }
  VkArgs_vkDestroyDescriptorUpdateTemplate a{device, t, allocator};
  run_generated(VkOp::vkDestroyDescriptorUpdateTemplate, a);
}

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

VKAPI_ATTR void VKAPI_CALL update_with_template(VkDevice device, VkDescriptorSet set, VkDescriptorUpdateTemplate t,
                                               const void* data) {
  std::vector<VkDescriptorUpdateTemplateEntry> entries;
  {
    std::lock_guard lock(templates().mu);
    auto it = templates().entries.find(id_of(t));
    if (it == templates().entries.end()) return;
    entries = it->second;
  }
  WriteData keep;
  keep.blocks.reserve(entries.size());  // writes point into it
  std::vector<VkWriteDescriptorSet> writes;
  for (const auto& e : entries)
    if (e.descriptorCount) writes.push_back(write_of(set, e, static_cast<const std::byte*>(data), keep));
  VkArgs_vkUpdateDescriptorSets a{device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr};
  run_generated(VkOp::vkUpdateDescriptorSets, a);
}

}  // namespace

PFN_vkVoidFunction descriptor_templates_entry(const char* name) {
  static const NamedEntry kEntries[] = {
      {"vkCreateDescriptorUpdateTemplate", entry_fn(create_template)},
      {"vkCreateDescriptorUpdateTemplateKHR", entry_fn(create_template)},
      {"vkDestroyDescriptorUpdateTemplate", entry_fn(destroy_template)},
      {"vkDestroyDescriptorUpdateTemplateKHR", entry_fn(destroy_template)},
      {"vkUpdateDescriptorSetWithTemplate", entry_fn(update_with_template)},
      {"vkUpdateDescriptorSetWithTemplateKHR", entry_fn(update_with_template)},
  };
  return find_entry(kEntries, name);
}

}  // namespace icd::vk
