#include "vk/compute_state.h"

#include <algorithm>

#include "wire/vk_codec.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// A recording keeps at most this many binds and pushes, the oldest dropped
// first: what a program binds or pushes to many sets in turn between two
// dispatches is then partly lost after a clamp, rather than the host's
// memory growing with the recording.
constexpr size_t kKeptSets = 64;

template <typename T>
std::vector<T> copy_of(const T* items, uint32_t count) {
  return items ? std::vector<T>(items, items + count) : std::vector<T>{};
}

}  // namespace

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
      std::erase_if(sets_, [&](const auto& kept) {
        if (const auto* b = std::get_if<SetBind>(&kept)) return b->first >= a.firstSet && b->first + b->sets.size() <= end;
        const uint32_t pushed = std::get<PushedSet>(kept).set;
        return pushed >= a.firstSet && pushed < end;
      });
      sets_.push_back(SetBind{a.layout, a.firstSet, {a.pDescriptorSets, a.pDescriptorSets + a.descriptorSetCount},
                              {a.pDynamicOffsets, a.pDynamicOffsets + a.dynamicOffsetCount}});
      if (sets_.size() > kKeptSets) sets_.erase(sets_.begin());
      break;
    }
    case VkOp::vkCmdPushDescriptorSetKHR:
      note_pushed_set(args);
      break;
    case VkOp::vkCmdPushConstants: {
      const auto& a = *static_cast<const VkArgs_vkCmdPushConstants*>(args);
      const uint32_t end = a.offset + a.size;
      // A frame pushes the same range before every draw: the push it
      // replaces lends its bytes' storage, so no push allocates.
      std::vector<std::byte> storage;
      std::erase_if(pushes_, [&](Push& p) {
        const bool covered = p.stages == a.stageFlags && p.offset >= a.offset && p.offset + p.bytes.size() <= end;
        if (covered && storage.capacity() == 0) storage = std::move(p.bytes);
        return covered;
      });
      const auto* bytes = static_cast<const std::byte*>(a.pValues);
      storage.assign(bytes, bytes + a.size);
      pushes_.push_back({a.layout, a.stageFlags, a.offset, std::move(storage)});
      break;
    }
    case VkOp::vkCmdExecuteCommands:  // the primary's state is undefined after it
      *this = {};
      break;
    default:
      break;
  }
}

// A push replaces earlier pushes to its set whose every write it writes
// again at the same place (zink pushes the same bindings before each
// dispatch).
void ComputeState::note_pushed_set(const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCmdPushDescriptorSetKHR*>(args);
  if (as_number(a.pipelineBindPoint) != VK_PIPELINE_BIND_POINT_COMPUTE) return;
  PushedSet pushed{a.layout, a.set, {}};
  for (uint32_t i = 0; i < a.descriptorWriteCount; ++i) {
    const VkWriteDescriptorSet& w = a.pDescriptorWrites[i];
    PushedWrite kept{w, copy_of(w.pImageInfo, w.descriptorCount), copy_of(w.pBufferInfo, w.descriptorCount),
                     copy_of(w.pTexelBufferView, w.descriptorCount)};
    kept.write.pNext = nullptr;  // no inline uniform blocks in a pushed set (the host's check)
    pushed.writes.push_back(std::move(kept));
  }
  auto rewritten = [&](const PushedWrite& old) {
    return std::any_of(pushed.writes.begin(), pushed.writes.end(), [&](const PushedWrite& now) {
      return now.write.dstBinding == old.write.dstBinding && now.write.dstArrayElement == old.write.dstArrayElement &&
             now.write.descriptorCount >= old.write.descriptorCount;
    });
  };
  std::erase_if(sets_, [&](const auto& kept) {
    const auto* p = std::get_if<PushedSet>(&kept);
    return p && p->set == a.set && std::all_of(p->writes.begin(), p->writes.end(), rewritten);
  });
  sets_.push_back(std::move(pushed));
  if (sets_.size() > kKeptSets) sets_.erase(sets_.begin());
}

void ComputeState::push_again(const HostDispatch& d, VkCommandBuffer cb, const PushedSet& p) {
  std::vector<VkWriteDescriptorSet> writes;
  for (const PushedWrite& w : p.writes) {
    VkWriteDescriptorSet again = w.write;
    again.pImageInfo = w.images.empty() ? nullptr : w.images.data();
    again.pBufferInfo = w.buffers.empty() ? nullptr : w.buffers.data();
    again.pTexelBufferView = w.views.empty() ? nullptr : w.views.data();
    writes.push_back(again);
  }
  d.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, p.set,
                              static_cast<uint32_t>(writes.size()), writes.data());
}

void ComputeState::bind_again(const HostDispatch& d, VkCommandBuffer cb) const {
  if (pipeline_) d.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  for (const auto& kept : sets_) {
    if (const auto* p = std::get_if<PushedSet>(&kept)) {
      push_again(d, cb, *p);
      continue;
    }
    const SetBind& b = std::get<SetBind>(kept);
    d.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, b.layout, b.first,
                              static_cast<uint32_t>(b.sets.size()), b.sets.data(),
                              static_cast<uint32_t>(b.dynamic_offsets.size()), b.dynamic_offsets.data());
  }
  for (const Push& p : pushes_)
    d.vkCmdPushConstants(cb, p.layout, p.stages, p.offset, static_cast<uint32_t>(p.bytes.size()), p.bytes.data());
}

}  // namespace host::vk
