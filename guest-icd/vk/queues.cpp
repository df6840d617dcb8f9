// A device's queues: vkGetDeviceQueue answers the same handle for the same
// queue every time, as the spec says (a program compares them, and the
// fences it submits to one are told of by presents on the same queue).
#include <map>
#include <mutex>
#include <tuple>

#include "vk/entry.h"
#include "vk/objects.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

// Device id (never reused, unlike the object's address), family, index, flags.
using QueueKey = std::tuple<uint64_t, uint32_t, uint32_t, VkDeviceQueueCreateFlags>;

struct Queues {
  std::mutex mu;
  std::map<QueueKey, VkQueue> known;
};

Queues& queues() {
  static Queues* q = new Queues;
  return *q;
}

QueueKey key_of(VkDevice device, uint32_t family, uint32_t index, VkDeviceQueueCreateFlags flags) {
  return {reinterpret_cast<const DispatchableObject*>(device)->id, family, index, flags};
}

// The queue asked before, or the one `get` fetches now.
template <typename Get>
void find_queue(const QueueKey& key, VkQueue* queue, Get get) {
  Queues& q = queues();
  std::lock_guard lock(q.mu);
  if (auto it = q.known.find(key); it != q.known.end()) {
    *queue = it->second;
    return;
  }
  get();
  if (*queue) q.known[key] = *queue;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL get_device_queue(VkDevice device, uint32_t family, uint32_t index, VkQueue* queue) {
  find_queue(key_of(device, family, index, 0), queue, [&] {
    VkArgs_vkGetDeviceQueue a{device, family, index, queue};
    run_generated(VkOp::vkGetDeviceQueue, a);
  });
}

VKAPI_ATTR void VKAPI_CALL get_device_queue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue) {
  find_queue(key_of(device, info->queueFamilyIndex, info->queueIndex, info->flags), queue, [&] {
    VkArgs_vkGetDeviceQueue2 a{device, info, queue};
    run_generated(VkOp::vkGetDeviceQueue2, a);
  });
}

}  // namespace icd::vk
