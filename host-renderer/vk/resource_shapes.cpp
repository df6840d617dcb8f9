// The shapes of a guest's resources, noted when the driver made them and
// forgotten when they end; the checks that use them are in
// buffer_ranges.cpp, image_ranges.cpp and descriptor_ranges.cpp.
#include "vk/resource_shapes.h"

#include <algorithm>

#include "vk/chain.h"
#include "vk/handle_table.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

template <typename Map>
void forget_of_device(Map& map, uint64_t device) {
  std::erase_if(map, [device](const auto& entry) { return entry.second.device == device; });
}

}  // namespace

void ResourceShapes::note(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCreateBuffer:
      return note_buffer(args);
    case VkOp::vkDestroyBuffer:
      buffers_.erase(raw_handle(static_cast<const VkArgs_vkDestroyBuffer*>(args)->buffer));
      return;
    case VkOp::vkCreateImage:
      return note_image(args);
    case VkOp::vkDestroyImage:
      images_.erase(raw_handle(static_cast<const VkArgs_vkDestroyImage*>(args)->image));
      return;
    case VkOp::vkAllocateMemory: {
      const auto& a = *static_cast<const VkArgs_vkAllocateMemory*>(args);
      memory_[raw_handle(*a.pMemory)] = {raw_handle(a.device), a.pAllocateInfo->allocationSize,
                                         a.pAllocateInfo->memoryTypeIndex};
      return;
    }
    case VkOp::vkFreeMemory: {
      // What was bound to it has no memory from now on: commands naming
      // it are refused as those naming unbound resources.
      const uint64_t gone = raw_handle(static_cast<const VkArgs_vkFreeMemory*>(args)->memory);
      memory_.erase(gone);
      for (auto& [handle, b] : buffers_)
        if (b.memory == gone) b.memory = 0;
      for (auto& [handle, i] : images_)
        if (i.memory == gone) i.memory = 0;
      return;
    }
    case VkOp::vkBindBufferMemory:
    case VkOp::vkBindBufferMemory2:
    case VkOp::vkBindImageMemory:
    case VkOp::vkBindImageMemory2:
      return note_memory_binds(opcode, args);
    case VkOp::vkCreateDescriptorSetLayout:
      return note_set_layout(args);
    case VkOp::vkDestroyDescriptorSetLayout:
      set_layouts_.erase(raw_handle(static_cast<const VkArgs_vkDestroyDescriptorSetLayout*>(args)->descriptorSetLayout));
      return;
    case VkOp::vkCreatePipelineLayout:
      return note_pipeline_layout(args);
    case VkOp::vkDestroyPipelineLayout:
      pipeline_layouts_.erase(raw_handle(static_cast<const VkArgs_vkDestroyPipelineLayout*>(args)->pipelineLayout));
      forget_last_layout();
      return;
    case VkOp::vkCreateQueryPool: {
      const auto& a = *static_cast<const VkArgs_vkCreateQueryPool*>(args);
      const bool statistics = as_number(a.pCreateInfo->queryType) == VK_QUERY_TYPE_PIPELINE_STATISTICS;
      // A transform feedback query writes two values (primitives written and needed).
      const bool feedback = as_number(a.pCreateInfo->queryType) == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
      const uint32_t values = statistics ? __builtin_popcount(a.pCreateInfo->pipelineStatistics) : feedback ? 2 : 1;
      query_pools_[raw_handle(*a.pQueryPool)] = {raw_handle(a.device), a.pCreateInfo->queryCount, values};
      return;
    }
    case VkOp::vkDestroyQueryPool:
      query_pools_.erase(raw_handle(static_cast<const VkArgs_vkDestroyQueryPool*>(args)->queryPool));
      return;
    case VkOp::vkAllocateDescriptorSets:
    case VkOp::vkFreeDescriptorSets:
    case VkOp::vkResetDescriptorPool:
    case VkOp::vkDestroyDescriptorPool:
      return note_descriptor_sets(opcode, args);
    case VkOp::vkUpdateDescriptorSets:
      return note_descriptor_writes(args);
    case VkOp::vkCreateSemaphore:
      return note_semaphore(args);
    case VkOp::vkDestroySemaphore:
      semaphores_.erase(raw_handle(static_cast<const VkArgs_vkDestroySemaphore*>(args)->semaphore));
      return;
    case VkOp::vkQueueSubmit:
    case VkOp::vkQueueSubmit2:
      return note_semaphore_uses(opcode, args);
    case VkOp::vkDestroyDevice:
      return forget_device(raw_handle(static_cast<const VkArgs_vkDestroyDevice*>(args)->device));
    default:
      return;
  }
}

void ResourceShapes::note_buffer(const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCreateBuffer*>(args);
  VkMemoryRequirements need{};
  dispatch_.vkGetBufferMemoryRequirements(a.device, *a.pBuffer, &need);
  buffers_[raw_handle(*a.pBuffer)] = {raw_handle(a.device), a.pCreateInfo->size, a.pCreateInfo->usage,
                                      need.size, need.alignment, need.memoryTypeBits};
}

void ResourceShapes::note_image(const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCreateImage*>(args);
  const VkImageCreateInfo& info = *a.pCreateInfo;
  VkMemoryRequirements need{};
  dispatch_.vkGetImageMemoryRequirements(a.device, *a.pImage, &need);
  images_[raw_handle(*a.pImage)] = {raw_handle(a.device),
                                    static_cast<uint32_t>(as_number(info.imageType)),
                                    static_cast<uint32_t>(as_number(info.format)),
                                    info.extent.width,
                                    info.extent.height,
                                    info.extent.depth,
                                    info.mipLevels,
                                    info.arrayLayers,
                                    static_cast<uint32_t>(as_number(info.samples)),
                                    static_cast<uint32_t>(as_number(info.tiling)),
                                    need.size,
                                    need.alignment,
                                    need.memoryTypeBits};
}

void ResourceShapes::note_memory_binds(uint32_t opcode, const void* args) {
  auto bind = [](auto& shapes, uint64_t object, uint64_t memory, uint64_t offset) {
    auto it = shapes.find(object);
    if (it == shapes.end()) return;
    it->second.memory = memory;
    it->second.memory_offset = offset;
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkBindBufferMemory: {
      const auto& a = *static_cast<const VkArgs_vkBindBufferMemory*>(args);
      return bind(buffers_, raw_handle(a.buffer), raw_handle(a.memory), a.memoryOffset);
    }
    case VkOp::vkBindImageMemory: {
      const auto& a = *static_cast<const VkArgs_vkBindImageMemory*>(args);
      return bind(images_, raw_handle(a.image), raw_handle(a.memory), a.memoryOffset);
    }
    case VkOp::vkBindBufferMemory2: {
      const auto& a = *static_cast<const VkArgs_vkBindBufferMemory2*>(args);
      for (uint32_t i = 0; i < a.bindInfoCount; ++i) {
        const VkBindBufferMemoryInfo& b = a.pBindInfos[i];
        bind(buffers_, raw_handle(b.buffer), raw_handle(b.memory), b.memoryOffset);
      }
      return;
    }
    default: {
      const auto& a = *static_cast<const VkArgs_vkBindImageMemory2*>(args);
      for (uint32_t i = 0; i < a.bindInfoCount; ++i) {
        const VkBindImageMemoryInfo& b = a.pBindInfos[i];
        bind(images_, raw_handle(b.image), raw_handle(b.memory), b.memoryOffset);
      }
      return;
    }
  }
}

void ResourceShapes::note_set_layout(const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCreateDescriptorSetLayout*>(args);
  const VkDescriptorSetLayoutCreateInfo& info = *a.pCreateInfo;
  auto* flags = reinterpret_cast<const VkDescriptorSetLayoutBindingFlagsCreateInfo*>(
      find_in_chain(info.pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO));
  auto layout = std::make_shared<SetLayoutShape>();
  layout->device = raw_handle(a.device);
  layout->push = (info.flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) != 0;
  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& b = info.pBindings[i];
    const VkDescriptorBindingFlags binding_flags = flags && i < flags->bindingCount ? flags->pBindingFlags[i] : 0;
    const bool variable = binding_flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
    const bool may_go_stale =
        binding_flags & (VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT);
    layout->bindings.push_back({b.binding, static_cast<uint32_t>(as_number(b.descriptorType)), b.descriptorCount,
                                variable, b.pImmutableSamplers != nullptr, may_go_stale});
  }
  std::sort(layout->bindings.begin(), layout->bindings.end(),
            [](const BindingShape& x, const BindingShape& y) { return x.binding < y.binding; });
  set_layouts_[raw_handle(*a.pSetLayout)] = std::move(layout);
}

void ResourceShapes::note_pipeline_layout(const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCreatePipelineLayout*>(args);
  PipelineLayoutShape shape{raw_handle(a.device), {}, {}};
  shape.push_constants.assign(a.pCreateInfo->pPushConstantRanges,
                              a.pCreateInfo->pPushConstantRanges + a.pCreateInfo->pushConstantRangeCount);
  for (uint32_t i = 0; i < a.pCreateInfo->setLayoutCount; ++i) {
    auto it = set_layouts_.find(raw_handle(a.pCreateInfo->pSetLayouts[i]));
    // A null set layout (graphics pipeline libraries) has no descriptors.
    shape.sets.push_back(it == set_layouts_.end() ? std::make_shared<SetLayoutShape>() : it->second);
  }
  pipeline_layouts_[raw_handle(*a.pPipelineLayout)] = std::move(shape);
}

void ResourceShapes::forget_device(uint64_t device) {
  forget_of_device(buffers_, device);
  forget_of_device(images_, device);
  forget_of_device(memory_, device);
  forget_of_device(sets_, device);
  forget_of_device(pipeline_layouts_, device);
  forget_last_layout();
  forget_of_device(query_pools_, device);
  forget_of_device(semaphores_, device);
  push_limits_.erase(device);
  std::erase_if(set_layouts_, [device](const auto& entry) { return entry.second->device == device; });
}

}  // namespace host::vk
