// Command buffers whose objects went after they were recorded. Destroying
// a buffer, freeing its memory, or freeing a descriptor set a command
// buffer binds leaves that command buffer invalid (Vulkan 1.3, 6.1
// "Command Buffer Lifecycle"); a driver submits it anyway and runs its
// commands against freed memory. The host keeps every object a recording
// names (from the decoder: HandleTable::named) and what those reach
// (ObjectHolds), and before a submission follows them all, unless nothing
// of the guest's has gone since they were last found live: a frame that
// destroys nothing pays one comparison per command buffer.
#include <algorithm>

#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// What a command buffer's execution reaches. Layouts, shader modules and
// caches are left out: the spec lets a program destroy them once what was
// made from them is made (maintenance4 for pipeline layouts).
bool used_when_run(VkObjectType type) {
  switch (type) {
    case VK_OBJECT_TYPE_BUFFER:
    case VK_OBJECT_TYPE_IMAGE:
    case VK_OBJECT_TYPE_BUFFER_VIEW:
    case VK_OBJECT_TYPE_IMAGE_VIEW:
    case VK_OBJECT_TYPE_SAMPLER:
    case VK_OBJECT_TYPE_DESCRIPTOR_SET:
    case VK_OBJECT_TYPE_FRAMEBUFFER:
    case VK_OBJECT_TYPE_RENDER_PASS:
    case VK_OBJECT_TYPE_PIPELINE:
    case VK_OBJECT_TYPE_QUERY_POOL:
    case VK_OBJECT_TYPE_EVENT:
    case VK_OBJECT_TYPE_DEVICE_MEMORY:
      return true;
    default:
      return false;
  }
}

}  // namespace

void VkHandler::keep_uses(Recording& r, uint32_t opcode, const void* args) {
  if (static_cast<VkOp>(opcode) == VkOp::vkEndCommandBuffer) {  // once a recording: each object once
    auto by_serial = [](const ObjectUse& x, const ObjectUse& y) { return x.serial < y.serial; };
    std::sort(r.uses.begin(), r.uses.end(), by_serial);
    auto same = [](const ObjectUse& x, const ObjectUse& y) { return x.serial == y.serial; };
    r.uses.erase(std::unique(r.uses.begin(), r.uses.end(), same), r.uses.end());
    return;
  }
  for (const ObjectUse& u : handles_.named())
    if (used_when_run(u.type) && (r.uses.empty() || r.uses.back().serial != u.serial)) r.uses.push_back(u);
  if (static_cast<VkOp>(opcode) != VkOp::vkCmdExecuteCommands) return;
  // Secondaries are dispatchable: the decoder does not list them.
  const auto& a = *static_cast<const VkArgs_vkCmdExecuteCommands*>(args);
  for (uint32_t i = 0; i < a.commandBufferCount; ++i)
    r.uses.push_back(handles_.use_of(VK_OBJECT_TYPE_COMMAND_BUFFER, raw_handle(a.pCommandBuffers[i])));
}

// After the driver call: what a bind, a view, a framebuffer or a
// descriptor update makes one object reach through another.
void VkHandler::note_holds(uint32_t opcode, const void* args) {
  auto hold = [this](VkObjectType holder_type, uint64_t holder, VkObjectType held_type, uint64_t held) {
    const ObjectUse use = handles_.use_of(held_type, held);
    holds_.hold(handles_.use_of(holder_type, holder), {&use, 1});
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkBindBufferMemory: {
      const auto& a = *static_cast<const VkArgs_vkBindBufferMemory*>(args);
      hold(VK_OBJECT_TYPE_BUFFER, raw_handle(a.buffer), VK_OBJECT_TYPE_DEVICE_MEMORY, raw_handle(a.memory));
      break;
    }
    case VkOp::vkBindBufferMemory2: {
      const auto& a = *static_cast<const VkArgs_vkBindBufferMemory2*>(args);
      for (uint32_t i = 0; i < a.bindInfoCount; ++i)
        hold(VK_OBJECT_TYPE_BUFFER, raw_handle(a.pBindInfos[i].buffer), VK_OBJECT_TYPE_DEVICE_MEMORY,
             raw_handle(a.pBindInfos[i].memory));
      break;
    }
    case VkOp::vkBindImageMemory: {
      const auto& a = *static_cast<const VkArgs_vkBindImageMemory*>(args);
      hold(VK_OBJECT_TYPE_IMAGE, raw_handle(a.image), VK_OBJECT_TYPE_DEVICE_MEMORY, raw_handle(a.memory));
      break;
    }
    case VkOp::vkBindImageMemory2: {
      const auto& a = *static_cast<const VkArgs_vkBindImageMemory2*>(args);
      for (uint32_t i = 0; i < a.bindInfoCount; ++i)
        hold(VK_OBJECT_TYPE_IMAGE, raw_handle(a.pBindInfos[i].image), VK_OBJECT_TYPE_DEVICE_MEMORY,
             raw_handle(a.pBindInfos[i].memory));
      break;
    }
    case VkOp::vkCreateImageView: {
      const auto& a = *static_cast<const VkArgs_vkCreateImageView*>(args);
      hold(VK_OBJECT_TYPE_IMAGE_VIEW, raw_handle(*a.pView), VK_OBJECT_TYPE_IMAGE, raw_handle(a.pCreateInfo->image));
      break;
    }
    case VkOp::vkCreateBufferView: {
      const auto& a = *static_cast<const VkArgs_vkCreateBufferView*>(args);
      hold(VK_OBJECT_TYPE_BUFFER_VIEW, raw_handle(*a.pView), VK_OBJECT_TYPE_BUFFER, raw_handle(a.pCreateInfo->buffer));
      break;
    }
    case VkOp::vkCreateFramebuffer: {
      const auto& a = *static_cast<const VkArgs_vkCreateFramebuffer*>(args);
      if (a.pCreateInfo->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) break;
      for (uint32_t i = 0; i < a.pCreateInfo->attachmentCount; ++i)
        hold(VK_OBJECT_TYPE_FRAMEBUFFER, raw_handle(*a.pFramebuffer), VK_OBJECT_TYPE_IMAGE_VIEW,
             raw_handle(a.pCreateInfo->pAttachments[i]));
      break;
    }
    case VkOp::vkUpdateDescriptorSets: {
      const auto& a = *static_cast<const VkArgs_vkUpdateDescriptorSets*>(args);
      note_descriptor_holds(a.pDescriptorWrites, a.descriptorWriteCount, a.pDescriptorCopies, a.descriptorCopyCount);
      break;
    }
    default:
      break;
  }
}

// What the k-th descriptor of a write names: a view and a sampler (unless
// the binding's samplers are its layout's), a buffer, or a texel buffer's
// view. None for a binding whose descriptors may go stale: a bindless
// heap's stale descriptors that no shader reads are the program's right.
std::array<ObjectUse, 2> VkHandler::named_by(const VkWriteDescriptorSet& w, uint32_t k, const BindingShape& b) const {
  const auto type = static_cast<uint32_t>(as_number(w.descriptorType));
  if (b.may_go_stale) return {};
  if (is_image(type)) {
    const VkDescriptorImageInfo& info = w.pImageInfo[k];
    const ObjectUse sampler =
        b.immutable_samplers ? ObjectUse{} : handles_.use_of(VK_OBJECT_TYPE_SAMPLER, raw_handle(info.sampler));
    return {handles_.use_of(VK_OBJECT_TYPE_IMAGE_VIEW, raw_handle(info.imageView)), sampler};
  }
  if (is_buffer(type)) return {handles_.use_of(VK_OBJECT_TYPE_BUFFER, raw_handle(w.pBufferInfo[k].buffer)), {}};
  if (is_texel_buffer(type)) return {handles_.use_of(VK_OBJECT_TYPE_BUFFER_VIEW, raw_handle(w.pTexelBufferView[k])), {}};
  return {};
}

// Each descriptor written holds what it names in place of what its slot
// named before.
void VkHandler::note_descriptor_holds(const VkWriteDescriptorSet* writes, uint32_t write_count,
                                      const VkCopyDescriptorSet* copies, uint32_t copy_count) {
  for (uint32_t i = 0; i < write_count; ++i) {
    const VkWriteDescriptorSet& w = writes[i];
    const ObjectUse set = handles_.use_of(VK_OBJECT_TYPE_DESCRIPTOR_SET, raw_handle(w.dstSet));
    resources_.each_slot(raw_handle(w.dstSet), w.dstBinding, w.dstArrayElement, w.descriptorCount,
                         [&](uint64_t slot, uint32_t k, const BindingShape& b) {
                           holds_.hold_in_set(set, slot, named_by(w, k, b));
                         });
  }
  for (uint32_t i = 0; i < copy_count; ++i) {
    const VkCopyDescriptorSet& c = copies[i];
    const ObjectUse from = handles_.use_of(VK_OBJECT_TYPE_DESCRIPTOR_SET, raw_handle(c.srcSet));
    const ObjectUse to = handles_.use_of(VK_OBJECT_TYPE_DESCRIPTOR_SET, raw_handle(c.dstSet));
    std::vector<uint64_t> from_slots;
    resources_.each_slot(raw_handle(c.srcSet), c.srcBinding, c.srcArrayElement, c.descriptorCount,
                         [&](uint64_t slot, uint32_t, const BindingShape&) { from_slots.push_back(slot); });
    resources_.each_slot(raw_handle(c.dstSet), c.dstBinding, c.dstArrayElement, c.descriptorCount,
                         [&](uint64_t slot, uint32_t k, const BindingShape& b) {
                           if (b.may_go_stale) holds_.hold_in_set(to, slot, {});
                           else if (k < from_slots.size()) holds_.copy_in_sets(from, from_slots[k], to, slot);
                         });
  }
}

wire::Status VkHandler::check_uses_live(Recording& r) {
  const uint64_t removals = handles_.removals();
  if (r.uses_live_at == removals) return {};
  std::unordered_set<uint64_t> seen;
  if (!uses_live(r, seen))
    return refused("vkQueueSubmit", "of a command buffer whose objects were destroyed or freed after it was recorded");
  r.uses_live_at = removals;
  return {};
}

bool VkHandler::uses_live(const Recording& r, std::unordered_set<uint64_t>& seen) const {
  for (const ObjectUse& u : r.uses) {
    if (u.type != VK_OBJECT_TYPE_COMMAND_BUFFER) {
      if (!holds_.reachable_live(u, handles_, seen)) return false;
      continue;
    }
    auto secondary = recordings_.find(reinterpret_cast<VkCommandBuffer>(u.host));
    if (!handles_.live(u) || secondary == recordings_.end() || secondary->second.stage != Recording::Stage::kExecutable)
      return false;
    if (seen.insert(u.serial).second && !uses_live(secondary->second, seen)) return false;
  }
  return true;
}

}  // namespace host::vk
