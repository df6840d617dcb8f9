#include "vk/compute_state.h"

#include <algorithm>

#include "wire/vk_codec.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

void ComputeState::note(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBindPipeline: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindPipeline*>(args);
      if (as_number(a.pipelineBindPoint) == VK_PIPELINE_BIND_POINT_COMPUTE) pipeline_ = a.pipeline;
      break;
    }
    case VkOp::vkCmdBindDescriptorSets: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindDescriptorSets*>(args);
      if (as_number(a.pipelineBindPoint) != VK_PIPELINE_BIND_POINT_COMPUTE) break;
      const uint32_t end = a.firstSet + a.descriptorSetCount;
      std::erase_if(set_binds_, [&](const SetBind& b) { return b.first >= a.firstSet && b.first + b.sets.size() <= end; });
      set_binds_.push_back({a.layout, a.firstSet, {a.pDescriptorSets, a.pDescriptorSets + a.descriptorSetCount},
                            {a.pDynamicOffsets, a.pDynamicOffsets + a.dynamicOffsetCount}});
      break;
    }
    case VkOp::vkCmdPushConstants: {
      const auto& a = *static_cast<const VkArgs_vkCmdPushConstants*>(args);
      const uint32_t end = a.offset + a.size;
      std::erase_if(pushes_, [&](const Push& p) {
        return p.stages == a.stageFlags && p.offset >= a.offset && p.offset + p.bytes.size() <= end;
      });
      const auto* bytes = static_cast<const std::byte*>(a.pValues);
      pushes_.push_back({a.layout, a.stageFlags, a.offset, {bytes, bytes + a.size}});
      break;
    }
    case VkOp::vkCmdExecuteCommands:  // the primary's state is undefined after it
      *this = {};
      break;
    default:
      break;
  }
}

void ComputeState::bind_again(const HostDispatch& d, VkCommandBuffer cb) const {
  if (pipeline_) d.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  for (const SetBind& b : set_binds_)
    d.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, b.layout, b.first,
                              static_cast<uint32_t>(b.sets.size()), b.sets.data(),
                              static_cast<uint32_t>(b.dynamic_offsets.size()), b.dynamic_offsets.data());
  for (const Push& p : pushes_)
    d.vkCmdPushConstants(cb, p.layout, p.stages, p.offset, static_cast<uint32_t>(p.bytes.size()), p.bytes.data());
}

}  // namespace host::vk
