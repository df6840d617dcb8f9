// Binary semaphores a submission waits on have a signal on its way
// (Vulkan 1.3, section 7.4.2 "Semaphore Waiting": VUID-vkQueueSubmit-
// pWaitSemaphores-03238). A wait on one that nothing will signal holds its
// queue forever, and every later wait of the renderer with it: such a
// submission is refused instead. Timeline semaphores may be waited on
// before their signal (a host signal may come later); the host releases
// those itself when the device ends (bounded_waits.cpp).
#include <unordered_map>

#include "vk/handle_table.h"
#include "vk/refusal.h"
#include "vk/resource_shapes.h"
#include "vk/chain.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// Each semaphore a submission waits on, then each it signals, in order.
template <typename Wait, typename Signal>
void each_semaphore_use(uint32_t opcode, const void* args, Wait wait, Signal signal) {
  if (static_cast<VkOp>(opcode) == VkOp::vkQueueSubmit) {
    const auto& a = *static_cast<const VkArgs_vkQueueSubmit*>(args);
    for (uint32_t i = 0; i < a.submitCount; ++i) {
      const VkSubmitInfo& s = a.pSubmits[i];
      for (uint32_t j = 0; j < s.waitSemaphoreCount; ++j) wait(raw_handle(s.pWaitSemaphores[j]));
      for (uint32_t j = 0; j < s.signalSemaphoreCount; ++j) signal(raw_handle(s.pSignalSemaphores[j]));
    }
    return;
  }
  const auto& a = *static_cast<const VkArgs_vkQueueSubmit2*>(args);
  for (uint32_t i = 0; i < a.submitCount; ++i) {
    const VkSubmitInfo2& s = a.pSubmits[i];
    for (uint32_t j = 0; j < s.waitSemaphoreInfoCount; ++j) wait(raw_handle(s.pWaitSemaphoreInfos[j].semaphore));
    for (uint32_t j = 0; j < s.signalSemaphoreInfoCount; ++j) signal(raw_handle(s.pSignalSemaphoreInfos[j].semaphore));
  }
}

}  // namespace

void ResourceShapes::note_semaphore(const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCreateSemaphore*>(args);
  auto* type = reinterpret_cast<const VkSemaphoreTypeCreateInfo*>(
      find_in_chain(a.pCreateInfo->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO));
  const bool timeline = type && as_number(type->semaphoreType) == VK_SEMAPHORE_TYPE_TIMELINE;
  semaphores_[raw_handle(*a.pSemaphore)] = {raw_handle(a.device), timeline, false};
}

wire::Status ResourceShapes::check_semaphore_waits(uint32_t opcode, const void* args) const {
  std::unordered_map<uint64_t, bool> pending;  // this call's changes, for its later submissions
  bool ok = true;
  auto is_pending = [&](uint64_t s, const SemaphoreShape& shape) {
    auto changed = pending.find(s);
    return changed != pending.end() ? changed->second : shape.pending;
  };
  each_semaphore_use(
      opcode, args,
      [&](uint64_t s) {
        auto it = semaphores_.find(s);
        if (it == semaphores_.end() || it->second.timeline) return;
        ok = ok && is_pending(s, it->second);
        pending[s] = false;
      },
      [&](uint64_t s) { pending[s] = true; });
  if (!ok) return refused("vkQueueSubmit", "waiting on a binary semaphore that nothing will signal");
  return {};
}

// The commands of timeline semaphores name only those
// (VUID-vkGetSemaphoreCounterValue-semaphore-03255,
// VUID-VkSemaphoreSignalInfo-semaphore-03257,
// VUID-VkSemaphoreWaitInfo-pSemaphores-03256): lavapipe asks a binary
// semaphore for its value through a null entry of its own.
wire::Status ResourceShapes::check_timelines(uint32_t opcode, const void* args) const {
  auto timeline = [this](VkSemaphore s) {
    auto it = semaphores_.find(raw_handle(s));
    return it != semaphores_.end() && it->second.timeline;
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkGetSemaphoreCounterValue:
      if (!timeline(static_cast<const VkArgs_vkGetSemaphoreCounterValue*>(args)->semaphore))
        return refused("vkGetSemaphoreCounterValue", "of a semaphore that is not a timeline one");
      return {};
    case VkOp::vkSignalSemaphore:
      if (!timeline(static_cast<const VkArgs_vkSignalSemaphore*>(args)->pSignalInfo->semaphore))
        return refused("vkSignalSemaphore", "of a semaphore that is not a timeline one");
      return {};
    default: {
      const VkSemaphoreWaitInfo& w = *static_cast<const VkArgs_vkWaitSemaphores*>(args)->pWaitInfo;
      for (uint32_t i = 0; i < w.semaphoreCount; ++i)
        if (!timeline(w.pSemaphores[i])) return refused("vkWaitSemaphores", "of a semaphore that is not a timeline one");
      return {};
    }
  }
}

void ResourceShapes::note_semaphore_uses(uint32_t opcode, const void* args) {
  auto set = [this](bool pending) {
    return [this, pending](uint64_t s) {
      auto it = semaphores_.find(s);
      if (it != semaphores_.end() && !it->second.timeline) it->second.pending = pending;
    };
  };
  each_semaphore_use(opcode, args, set(false), set(true));
}

std::vector<uint64_t> ResourceShapes::timelines_of(uint64_t device) const {
  std::vector<uint64_t> out;
  for (const auto& [handle, s] : semaphores_)
    if (s.device == device && s.timeline) out.push_back(handle);
  return out;
}

}  // namespace host::vk
