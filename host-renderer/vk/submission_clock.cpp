// How long submitted work has been running. No Vulkan command cancels a
// submission, and a guest's waits are asks of a bounded time each, so work
// that never ends (a shader's own loop, an indirect draw of counts the
// guest wrote) would keep its renderer's driver busy for as long as the
// guest stays. Each queue that was given work carries a watch: an empty
// submission with a fence of the host's, which signals once everything
// submitted before it is done. A watch still unsignalled past the guest's
// --submission-timeout makes the work overdue; the session then loses the
// guest's Vulkan and ends its renderer, which takes the work with it, the
// way a GPU's own watchdog resets a context.
#include <chrono>

#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// A queue gets a new watch at most this often: a frame's batch each
// would add an empty submission per frame (6% of the GPU compute scene's
// frames on an H200), and the limit is seconds.
constexpr uint64_t kWatchGapMs = 250;

uint64_t now_ms() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

}  // namespace

void VkHandler::note_submitted_work(uint32_t opcode, const void* args) {
  if (static_cast<VkOp>(opcode) != VkOp::vkQueueSubmit && static_cast<VkOp>(opcode) != VkOp::vkQueueSubmit2) return;
  const VkQueue queue = static_cast<const VkArgs_vkQueueSubmit*>(args)->queue;
  QueueClock& clock = clocks_[queue];
  clock.device = reinterpret_cast<VkDevice>(
      handles_.device_of(handles_.to_wire(VK_OBJECT_TYPE_QUEUE, true, reinterpret_cast<uint64_t>(queue))));
  clock.unwatched = true;
}

// After each batch, and while the guest is silent with work pending:
// watches that signalled are put by, and a queue given work since its last
// watch gets a new one.
void VkHandler::watch_queues() {
  if (account_.limits.submission_timeout_s == 0) return;  // no clock, no watches
  const uint64_t now = now_ms();
  for (auto& [queue, clock] : clocks_) {
    if (clock.watching && dispatch_.vkGetFenceStatus(clock.device, clock.fence) == VK_SUCCESS) {
      dispatch_.vkResetFences(clock.device, 1, &clock.fence);
      clock.watching = false;
    }
    if (clock.watching || !clock.unwatched || now - clock.since_ms < kWatchGapMs) continue;
    if (!clock.fence) {
      VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      if (dispatch_.vkCreateFence(clock.device, &info, nullptr, &clock.fence) != VK_SUCCESS) continue;
    }
    if (dispatch_.vkQueueSubmit(queue, 0, nullptr, clock.fence) != VK_SUCCESS) continue;
    clock.watching = true;
    clock.unwatched = false;
    clock.since_ms = now;
  }
}

bool VkHandler::work_pending() const {
  if (account_.limits.submission_timeout_s == 0) return false;
  for (const auto& [queue, clock] : clocks_)
    if (clock.watching || clock.unwatched) return true;
  return false;
}

// A fence is asked only of a watch past the limit: after a batch,
// end_batch() has put by the watches that signalled already.
bool VkHandler::work_overdue() const {
  const uint64_t limit = uint64_t{account_.limits.submission_timeout_s} * 1000;
  if (limit == 0) return false;
  const uint64_t now = now_ms();
  for (const auto& [queue, clock] : clocks_)
    if (clock.watching && now - clock.since_ms > limit &&
        dispatch_.vkGetFenceStatus(clock.device, clock.fence) != VK_SUCCESS)
      return true;
  return false;
}

// Before the device ends (its work settled): its watches' fences.
void VkHandler::forget_clocks_of(VkDevice device) {
  std::erase_if(clocks_, [&](const auto& entry) {
    if (entry.second.device != device) return false;
    if (entry.second.fence) dispatch_.vkDestroyFence(device, entry.second.fence, nullptr);
    return true;
  });
}

}  // namespace host::vk
