// Command buffers and descriptor sets end with their pool (destroyed, or a
// descriptor pool reset) without a command naming them: their ids leave the
// guest's table then, so a guest that names one later is refused rather
// than reaching the driver with a freed object.
#include <algorithm>
#include <cstring>
#include <vector>

#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

uint64_t item(const void* items, uint32_t i) {
  uint64_t v;
  std::memcpy(&v, static_cast<const std::byte*>(items) + i * sizeof v, sizeof v);
  return v;
}

}  // namespace

namespace {

// Whether two of `count` handles (nulls apart) are the same object.
bool names_twice(const void* items, uint32_t count, uint64_t also = 0) {
  std::vector<uint64_t> named;
  named.reserve(count + 1);
  if (also) named.push_back(also);
  for (uint32_t i = 0; i < count; ++i)
    if (const uint64_t v = item(items, i)) named.push_back(v);
  std::sort(named.begin(), named.end());
  return std::adjacent_find(named.begin(), named.end()) != named.end();
}

}  // namespace

// Arrays whose objects the driver consumes or links one by one are present
// wherever their count is not zero (vk.xml marks them noautovalidity:
// lavapipe walked a missing one through null) and name each object at most
// once: lavapipe unlinks a descriptor set named twice twice, through a
// cleared link; a pipeline cache merged into itself is what the spec
// forbids (VUID-vkMergePipelineCaches-dstCache-00770) and Mesa's common
// cache asserts against, and no driver need expect. Nulls may repeat:
// drivers skip them.
wire::Status VkHandler::check_named_once(uint32_t opcode, const void* args) {
  auto check = [](const char* command, const void* items, uint32_t count, uint64_t also = 0) -> wire::Status {
    if (!items) return count ? refused(command, "of a missing array") : wire::Status{};
    if (names_twice(items, count, also))
      return refused(command, also ? "naming one cache twice, or its destination among its sources" : "naming one object twice");
    return {};
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkFreeDescriptorSets: {
      auto& a = *static_cast<const VkArgs_vkFreeDescriptorSets*>(args);
      return check("vkFreeDescriptorSets", a.pDescriptorSets, a.descriptorSetCount);
    }
    case VkOp::vkFreeCommandBuffers: {
      auto& a = *static_cast<const VkArgs_vkFreeCommandBuffers*>(args);
      return check("vkFreeCommandBuffers", a.pCommandBuffers, a.commandBufferCount);
    }
    case VkOp::vkMergePipelineCaches: {
      auto& a = *static_cast<const VkArgs_vkMergePipelineCaches*>(args);
      return check("vkMergePipelineCaches", a.pSrcCaches, a.srcCacheCount, raw_handle(a.dstCache));
    }
    default:
      return {};
  }
}

void VkHandler::note_children(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkAllocateCommandBuffers: {
      auto& a = *static_cast<const VkArgs_vkAllocateCommandBuffers*>(args);
      note_pool_children(raw_handle(a.pAllocateInfo->commandPool), raw_handle(a.device), VK_OBJECT_TYPE_COMMAND_BUFFER,
                         a.pCommandBuffers, a.pAllocateInfo->commandBufferCount);
      break;
    }
    case VkOp::vkAllocateDescriptorSets: {
      auto& a = *static_cast<const VkArgs_vkAllocateDescriptorSets*>(args);
      note_pool_children(raw_handle(a.pAllocateInfo->descriptorPool), raw_handle(a.device), VK_OBJECT_TYPE_DESCRIPTOR_SET,
                         a.pDescriptorSets, a.pAllocateInfo->descriptorSetCount);
      break;
    }
    // Freed one by one: no longer the pool's (a driver may reuse the handle).
    case VkOp::vkFreeCommandBuffers: {
      auto& a = *static_cast<const VkArgs_vkFreeCommandBuffers*>(args);
      forget_pool_children(raw_handle(a.commandPool), VK_OBJECT_TYPE_COMMAND_BUFFER, a.pCommandBuffers,
                           a.commandBufferCount);
      break;
    }
    case VkOp::vkFreeDescriptorSets: {
      auto& a = *static_cast<const VkArgs_vkFreeDescriptorSets*>(args);
      forget_pool_children(raw_handle(a.descriptorPool), VK_OBJECT_TYPE_DESCRIPTOR_SET, a.pDescriptorSets,
                           a.descriptorSetCount);
      break;
    }
    case VkOp::vkDestroyCommandPool:
      drop_children(raw_handle(static_cast<const VkArgs_vkDestroyCommandPool*>(args)->commandPool));
      break;
    case VkOp::vkDestroyDescriptorPool:
      drop_children(raw_handle(static_cast<const VkArgs_vkDestroyDescriptorPool*>(args)->descriptorPool));
      break;
    case VkOp::vkResetDescriptorPool:
      drop_children(raw_handle(static_cast<const VkArgs_vkResetDescriptorPool*>(args)->descriptorPool));
      break;
    default:
      break;
  }
}

void VkHandler::note_pool_children(uint64_t pool, uint64_t device, VkObjectType type, const void* items,
                                   uint32_t count) {
  PoolChildren& kids = children_[pool];
  kids.device = device;
  for (uint32_t i = 0; i < count; ++i) kids.items.push_back({type, item(items, i)});
}

void VkHandler::forget_pool_children(uint64_t pool, VkObjectType type, const void* items, uint32_t count) {
  auto it = children_.find(pool);
  if (it == children_.end() || !items) return;
  for (uint32_t i = 0; i < count; ++i) std::erase(it->second.items, std::pair{type, item(items, i)});
}

void VkHandler::drop_children(uint64_t pool) {
  auto it = children_.find(pool);
  if (it == children_.end()) return;
  for (const auto& [type, handle] : it->second.items) handles_.remove(type, handle);
  children_.erase(it);
}

}  // namespace host::vk
