// Every wait the host does is bounded. A session runs one command at a
// time, so a wait nothing will end (a fence behind a semaphore never
// signalled, an event never set) would hold the guest's renderer for good,
// its teardown included. The guest's own waits become asks of at most
// kMostWaitNs each, answered VK_TIMEOUT for "not yet" (the guest asks
// again for what is left of the program's timeout); the host's waits for
// itself give up after kMostSettleNs and lose the guest's device.
#include <algorithm>
#include <chrono>
#include <thread>

#include "vk/vk_handler.h"
#include "wire/vk_commands.h"
#include "wire/vk_memory.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// How long the host waits for submitted work before it re-records,
// resets or frees what the work uses, or ends the device.
constexpr uint64_t kMostSettleNs = 5'000'000'000;

uint64_t now_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

}  // namespace

// The queue's work so far is done within `ns` (VK_SUCCESS), not yet
// (VK_TIMEOUT), or the device is lost. An empty submission with a fence
// of the host's marks the end of the work; it stays pending across asks.
VkResult VkHandler::wait_queue(VkDevice device, VkQueue queue, uint64_t ns) {
  VkFence& fence = idle_fences_[queue];
  if (!fence) {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkResult r = dispatch_.vkCreateFence(device, &info, nullptr, &fence);
    if (r == VK_SUCCESS) r = dispatch_.vkQueueSubmit(queue, 0, nullptr, fence);
    if (r != VK_SUCCESS) {
      forget_idle_fence(device, queue);
      return r;
    }
  }
  const VkResult r = dispatch_.vkWaitForFences(device, 1, &fence, VK_TRUE, ns);
  if (r != VK_TIMEOUT) forget_idle_fence(device, queue);
  return r;
}

void VkHandler::forget_idle_fence(VkDevice device, VkQueue queue) {
  auto it = idle_fences_.find(queue);
  if (it == idle_fences_.end()) return;
  if (it->second) dispatch_.vkDestroyFence(device, it->second, nullptr);
  idle_fences_.erase(it);
}

// Every queue the guest took of the device, within `ns` in all.
VkResult VkHandler::wait_device(VkDevice device, uint64_t ns) {
  const uint64_t deadline = now_ns() + ns;
  for (uint64_t q : handles_.children_of(raw_handle(device), VK_OBJECT_TYPE_QUEUE)) {
    const uint64_t now = now_ns();
    const VkResult r = wait_queue(device, reinterpret_cast<VkQueue>(q), deadline > now ? deadline - now : 0);
    if (r != VK_SUCCESS) return r;
  }
  return VK_SUCCESS;
}

wire::Result<uint64_t> VkHandler::queue_wait_idle(void* args) {
  const VkQueue queue = static_cast<VkArgs_vkQueueWaitIdle*>(args)->queue;
  const auto device = reinterpret_cast<VkDevice>(
      handles_.device_of(handles_.to_wire(VK_OBJECT_TYPE_QUEUE, true, raw_handle(queue))));
  return static_cast<uint64_t>(static_cast<int64_t>(wait_queue(device, queue, kMostWaitNs)));
}

wire::Result<uint64_t> VkHandler::device_wait_idle(void* args) {
  const VkDevice device = static_cast<VkArgs_vkDeviceWaitIdle*>(args)->device;
  return static_cast<uint64_t>(static_cast<int64_t>(wait_device(device, kMostWaitNs)));
}

// Before the host itself ends or reuses what submitted work may use.
bool VkHandler::settle_queue(VkDevice device, VkQueue queue) {
  return wait_queue(device, queue, kMostSettleNs) == VK_SUCCESS;
}

// Before a device ends: what its submissions wait for is released (its
// events set, its timeline semaphores signalled past any value a wait
// names), then its queues are waited for, within a bound. A device whose
// work still does not end is left to the driver's own end with the
// process, not destroyed under its running work.
bool VkHandler::settle_device(VkDevice device) {
  for (uint64_t e : handles_.children_of(raw_handle(device), VK_OBJECT_TYPE_EVENT))
    dispatch_.vkSetEvent(device, reinterpret_cast<VkEvent>(e));
  for (uint64_t s : resources_.timelines_of(raw_handle(device))) release_timeline(device, reinterpret_cast<VkSemaphore>(s));
  const bool idle = wait_device(device, kMostSettleNs) == VK_SUCCESS;
  for (uint64_t q : handles_.children_of(raw_handle(device), VK_OBJECT_TYPE_QUEUE))
    forget_idle_fence(device, reinterpret_cast<VkQueue>(q));
  return idle;
}

// Signals a timeline semaphore as far as the device lets one signal go
// past its value (maxTimelineSemaphoreValueDifference).
void VkHandler::release_timeline(VkDevice device, VkSemaphore semaphore) {
  uint64_t value = 0;
  if (dispatch_.vkGetSemaphoreCounterValue(device, semaphore, &value) != VK_SUCCESS) return;
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
  dispatch_.vkGetPhysicalDeviceProperties2(device_gpus_[device], &props);
  const uint64_t step = std::min(v12.maxTimelineSemaphoreValueDifference, UINT64_MAX - value);
  if (!step) return;
  VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, semaphore, value + step};
  dispatch_.vkSignalSemaphore(device, &signal);
}

// Results asked with VK_QUERY_RESULT_WAIT_BIT are polled for a slice
// instead: a query never ended would make the driver wait for good.
wire::Result<uint64_t> VkHandler::query_results(void* args) {
  auto& a = *static_cast<VkArgs_vkGetQueryPoolResults*>(args);
  auto ask = [&](VkQueryResultFlags flags) {
    return dispatch_.vkGetQueryPoolResults(a.device, a.queryPool, a.firstQuery, a.queryCount, a.dataSize, a.pData,
                                           a.stride, flags);
  };
  if (!(a.flags & VK_QUERY_RESULT_WAIT_BIT)) return static_cast<uint64_t>(static_cast<int64_t>(ask(a.flags)));
  const uint64_t deadline = now_ns() + kMostWaitNs;
  for (;;) {
    const VkResult r = ask(a.flags & ~VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_NOT_READY) return static_cast<uint64_t>(static_cast<int64_t>(r));
    if (now_ns() >= deadline) return static_cast<uint64_t>(static_cast<int64_t>(VK_TIMEOUT));
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace host::vk
