// What the guest knows of fences without asking the host. After each batch
// the host tells which submitted fences are signalled, and after a present
// it tells of every fence submitted before it on its queue
// (host-renderer/vk/present_commands.cpp). A program waiting for a fence
// told of, or sure to be (vkcube, before it reuses a frame's resources),
// waits for no round trip.
#include <algorithm>
#include <chrono>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "conn/connection.h"
#include "vk/entry.h"
#include "vk/fences.h"
#include "wire/control.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

struct FenceState {
  VkQueue queue = VK_NULL_HANDLE;  // null: signalled at creation, never submitted
  uint64_t submitted = 0;          // submission number
  bool signalled = false;
};

struct Fences {
  std::mutex mu;  // taken after the connection's lock, never before
  std::unordered_map<uint64_t, FenceState> by_id;
  std::unordered_map<VkQueue, uint64_t> told_up_to;  // by queue: submissions the host will tell of
  uint64_t submissions = 0;
};

Fences& fences() {
  static Fences* f = new Fences;
  return *f;
}

uint64_t id_of(VkFence f) { return reinterpret_cast<uint64_t>(f); }

// On the connection's receiving thread.
void on_signalled(wire::Reader& r) {
  auto count = r.get<uint32_t>();
  if (!count) return;
  Fences& f = fences();
  std::lock_guard lock(f.mu);
  for (uint32_t i = 0; i < *count; ++i) {
    auto id = r.get<uint64_t>();
    if (!id) return;
    if (auto it = f.by_id.find(*id); it != f.by_id.end()) it->second.signalled = true;
  }
}

// Whether the host's word on fences reaches on_signalled: set up once, and
// never with the fences' lock held (the connection's lock comes first).
bool listening() {
  static const bool on = [] {
    auto conn = vulkan_connection();
    if (conn) conn->listen(wire::ControlOp::kFencesSignalled, on_signalled);
    return conn != nullptr;
  }();
  return on;
}

enum class Known { kSignalled, kWillBeTold, kAsk };

// What the guest knows of one fence; called with the lock held.
Known known(Fences& f, VkFence fence) {
  auto it = f.by_id.find(id_of(fence));
  if (it == f.by_id.end()) return Known::kAsk;
  if (it->second.signalled) return Known::kSignalled;
  auto told = f.told_up_to.find(it->second.queue);
  return told != f.told_up_to.end() && told->second >= it->second.submitted ? Known::kWillBeTold : Known::kAsk;
}

// Whether the fences are signalled as vkWaitForFences asks (all or any).
bool satisfied(Fences& f, std::span<const VkFence> list, bool all) {
  std::lock_guard lock(f.mu);
  for (VkFence fence : list) {
    const bool done = known(f, fence) == Known::kSignalled;
    if (done && !all) return true;
    if (!done && all) return false;
  }
  return all;
}

}  // namespace

void note_fence_created(VkFence fence, bool signalled) {
  Fences& f = fences();
  std::lock_guard lock(f.mu);
  if (signalled)
    f.by_id[id_of(fence)] = {VK_NULL_HANDLE, 0, true};
  else
    f.by_id.erase(id_of(fence));
}

void note_fence_gone(std::span<const VkFence> gone) {
  Fences& f = fences();
  std::lock_guard lock(f.mu);
  for (VkFence fence : gone) f.by_id.erase(id_of(fence));
}

void note_fence_submitted(VkQueue queue, VkFence fence) {
  if (!fence) return;
  const bool told = listening();
  Fences& f = fences();
  std::lock_guard lock(f.mu);
  if (told)
    f.by_id[id_of(fence)] = {queue, ++f.submissions, false};
  else
    f.by_id.erase(id_of(fence));  // nothing known: waits ask the host
}

void note_presented(VkFence fence) {
  Fences& f = fences();
  std::lock_guard lock(f.mu);
  auto it = f.by_id.find(id_of(fence));
  if (it == f.by_id.end() || !it->second.queue) return;
  uint64_t& told = f.told_up_to[it->second.queue];
  told = std::max(told, it->second.submitted);
}

bool wait_without_asking(std::span<const VkFence> list, bool all, uint64_t timeout_ns, VkResult* result) {
  Fences& f = fences();
  {
    std::lock_guard lock(f.mu);
    bool any_coming = false;
    for (VkFence fence : list) {
      const Known k = known(f, fence);
      if (k == Known::kAsk && all) return false;
      any_coming = any_coming || k != Known::kAsk;
    }
    if (!any_coming) return false;
  }
  if (satisfied(f, list, all)) {
    *result = VK_SUCCESS;
    return true;
  }
  auto conn = vulkan_connection();
  if (!conn) {
    *result = VK_ERROR_DEVICE_LOST;
    return true;
  }
  send_commands_now();  // what the host must run first may still wait in the buffer
  // The host tells within its own present's limit, or loses the device.
  const auto limit = std::min<uint64_t>(timeout_ns / 1'000'000, conn->timeout().count());
  if (conn->wait_until([&] { return satisfied(f, list, all); }, std::chrono::milliseconds(limit),
                       wire::kVulkanContextId)) {
    *result = VK_SUCCESS;
    return true;
  }
  if (conn->lost() || conn->context_lost(wire::kVulkanContextId)) {
    *result = VK_ERROR_DEVICE_LOST;
    return true;
  }
  // Past the program's own timeout: the host may still be drawing.
  if (timeout_ns / 1'000'000 < static_cast<uint64_t>(conn->timeout().count())) {
    *result = VK_TIMEOUT;
    return true;
  }
  return false;
}

std::function<bool()> told_signalled(std::span<const VkFence> list, bool all) {
  return [list = std::vector<VkFence>(list.begin(), list.end()), all] { return satisfied(fences(), list, all); };
}

bool known_signalled(VkFence fence) {
  Fences& f = fences();
  std::lock_guard lock(f.mu);
  return known(f, fence) == Known::kSignalled;
}

VKAPI_ATTR VkResult VKAPI_CALL create_fence(VkDevice device, const VkFenceCreateInfo* info,
                                           const VkAllocationCallbacks* allocator, VkFence* fence) {
  VkArgs_vkCreateFence a{device, info, allocator, fence};
  const VkResult r = as_result(run_generated(VkOp::vkCreateFence, a));
  if (r == VK_SUCCESS) note_fence_created(*fence, info->flags & VK_FENCE_CREATE_SIGNALED_BIT);
  return r;
}

VKAPI_ATTR void VKAPI_CALL destroy_fence(VkDevice device, VkFence fence, const VkAllocationCallbacks* allocator) {
  note_fence_gone({&fence, 1});
  VkArgs_vkDestroyFence a{device, fence, allocator};
  run_generated(VkOp::vkDestroyFence, a);
}

VKAPI_ATTR VkResult VKAPI_CALL reset_fences(VkDevice device, uint32_t count, const VkFence* list) {
  note_fence_gone({list, count});
  VkArgs_vkResetFences a{device, count, list};
  return as_result(run_generated(VkOp::vkResetFences, a));
}

}  // namespace icd::vk
