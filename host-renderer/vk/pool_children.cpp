// Command buffers and descriptor sets end with their pool (destroyed, or a
// descriptor pool reset) without a command naming them: their ids leave the
// guest's table then, so a guest that names one later is refused rather
// than reaching the driver with a freed object.
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

template <typename T>
uint64_t raw(T handle) {
  return reinterpret_cast<uint64_t>(handle);
}

}  // namespace

void VkHandler::note_children(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkAllocateCommandBuffers: {
      auto& a = *static_cast<const VkArgs_vkAllocateCommandBuffers*>(args);
      auto& kids = children_[raw(a.pAllocateInfo->commandPool)];
      for (uint32_t i = 0; i < a.pAllocateInfo->commandBufferCount; ++i)
        kids.push_back({VK_OBJECT_TYPE_COMMAND_BUFFER, raw(a.pCommandBuffers[i])});
      break;
    }
    case VkOp::vkAllocateDescriptorSets: {
      auto& a = *static_cast<const VkArgs_vkAllocateDescriptorSets*>(args);
      auto& kids = children_[raw(a.pAllocateInfo->descriptorPool)];
      for (uint32_t i = 0; i < a.pAllocateInfo->descriptorSetCount; ++i)
        kids.push_back({VK_OBJECT_TYPE_DESCRIPTOR_SET, raw(a.pDescriptorSets[i])});
      break;
    }
    // Freed one by one: no longer the pool's (a driver may reuse the handle).
    case VkOp::vkFreeCommandBuffers: {
      auto& a = *static_cast<const VkArgs_vkFreeCommandBuffers*>(args);
      forget_children(raw(a.commandPool), VK_OBJECT_TYPE_COMMAND_BUFFER, a.pCommandBuffers, a.commandBufferCount);
      break;
    }
    case VkOp::vkFreeDescriptorSets: {
      auto& a = *static_cast<const VkArgs_vkFreeDescriptorSets*>(args);
      forget_children(raw(a.descriptorPool), VK_OBJECT_TYPE_DESCRIPTOR_SET, a.pDescriptorSets, a.descriptorSetCount);
      break;
    }
    case VkOp::vkDestroyCommandPool:
      drop_children(raw(static_cast<const VkArgs_vkDestroyCommandPool*>(args)->commandPool));
      break;
    case VkOp::vkDestroyDescriptorPool:
      drop_children(raw(static_cast<const VkArgs_vkDestroyDescriptorPool*>(args)->descriptorPool));
      break;
    case VkOp::vkResetDescriptorPool:
      drop_children(raw(static_cast<const VkArgs_vkResetDescriptorPool*>(args)->descriptorPool));
      break;
    default:
      break;
  }
}

template <typename T>
void VkHandler::forget_children(uint64_t pool, VkObjectType type, const T* items, uint32_t count) {
  auto it = children_.find(pool);
  if (it == children_.end() || !items) return;
  for (uint32_t i = 0; i < count; ++i) std::erase(it->second, std::pair{type, raw(items[i])});
}

void VkHandler::drop_children(uint64_t pool) {
  auto it = children_.find(pool);
  if (it == children_.end()) return;
  for (const auto& [type, handle] : it->second) handles_.remove(type, handle);
  children_.erase(it);
}

}  // namespace host::vk
