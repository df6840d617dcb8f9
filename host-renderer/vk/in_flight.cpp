// Command buffers and fences the GPU may still be using. The spec forbids
// re-recording, resetting or freeing a command buffer, or resetting a fence,
// while a submission that uses it is pending; a guest that waits for its
// fences in the guest (told by the host, docs/vulkan.md "Round trips") never
// does, but a broken or hostile stream would make the driver run freed
// commands. The host waits for such a submission first; for well-behaved
// guests the fence is signalled already and nothing waits.
#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "vk/refusal.h"
#include "vk/submitted.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

// Waits until the submission that used `cb` last is done, unless its fence
// says it is; within a bound (bounded_waits.cpp).
wire::Status VkHandler::settle(VkCommandBuffer cb) {
  auto it = in_flight_.find(cb);
  if (it == in_flight_.end()) return {};
  const InFlight& f = it->second;
  if ((!f.fence || dispatch_.vkGetFenceStatus(f.device, f.fence) != VK_SUCCESS) && !settle_queue(f.device, f.queue))
    return refused("a command buffer's reuse", "while its submission does not finish");
  in_flight_.erase(it);
  return {};
}

// Before `fence` is reset: its submissions are done (waited for if they
// are not), and so are the command buffers they used, which a reset
// fence could no longer tell.
wire::Status VkHandler::retire(VkDevice device, VkFence fence) {
  const bool done = dispatch_.vkGetFenceStatus(device, fence) == VK_SUCCESS;
  bool finished = true;
  auto finish = [&](VkQueue queue) {
    if (!done && finished) finished = settle_queue(device, queue);
  };
  for (const SubmittedFence& s : submitted_fences_)
    if (s.fence == fence) finish(s.queue);
  std::erase_if(in_flight_, [&](const auto& entry) {
    if (entry.second.fence != fence) return false;
    finish(entry.second.queue);
    return true;
  });
  if (!finished) return refused("vkResetFences", "of a fence whose submission does not finish");
  return {};
}

// Every command buffer of `pool` (its reset or end takes them all); other
// pools' submissions, such as the frame before's, are not waited for.
wire::Status VkHandler::settle_pool(VkCommandPool pool) {
  auto kids = children_.find(reinterpret_cast<uint64_t>(pool));
  if (kids == children_.end()) return {};
  for (const auto& [type, handle] : kids->second.items)
    if (type == VK_OBJECT_TYPE_COMMAND_BUFFER) WIRE_TRY(settle(reinterpret_cast<VkCommandBuffer>(handle)));
  return {};
}

// Before an object its device's submissions may still use goes (a buffer,
// memory, a pipeline, a descriptor set...): lavapipe's queue thread would
// read and write it after it was freed. Submissions whose fences have
// signalled are done; the others are waited for, within a bound. A guest
// that waits for its fences before it destroys what they used never waits
// here.
wire::Status VkHandler::settle_work_of(VkDevice device) {
  bool finished = true;
  std::erase_if(in_flight_, [&](const auto& entry) {
    const InFlight& f = entry.second;
    if (f.device != device) return false;
    if (f.fence && dispatch_.vkGetFenceStatus(device, f.fence) == VK_SUCCESS) return true;
    if (finished) finished = settle_queue(device, f.queue);
    return finished;
  });
  if (!finished) return refused("an object's end", "while a submission that may use it does not finish");
  return {};
}

namespace {

// Commands that end a device's object the GPU may use. Command pools,
// command buffers and fences are settled on their own, above; a device's
// end settles everything (device_teardown.cpp).
bool releases_device_object(const CommandDesc& c) {
  const std::string_view name = c.name;
  if (name == "vkResetDescriptorPool") return true;
  if (!c.ends_objects) return false;
  if (name == "vkDestroyDevice" || name == "vkDestroyCommandPool" || name == "vkFreeCommandBuffers" ||
      name == "vkDestroyFence")
    return false;
  return c.param_count && c.params[0].kind == Kind::kHandle && c.params[0].object_type == VK_OBJECT_TYPE_DEVICE;
}

}  // namespace

wire::Status VkHandler::settle_before(uint32_t opcode, void* args) {
  static const std::vector<uint8_t> kReleases = per_command<uint8_t>(releases_device_object);
  if (const auto* releases = entry_of(kReleases, opcode); releases && *releases && !in_flight_.empty()) {
    VkDevice device;
    std::memcpy(&device, static_cast<const std::byte*>(args) + command_desc(opcode)->params[0].offset, sizeof device);
    return settle_work_of(device);
  }
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkWaitForFences: {
      // At most kMostWaitNs at a time (bounded_waits.cpp).
      auto& a = *static_cast<VkArgs_vkWaitForFences*>(args);
      a.timeout = std::min(a.timeout, wire::vk::kMostWaitNs);
      break;
    }
    case VkOp::vkWaitSemaphores: {
      auto& a = *static_cast<VkArgs_vkWaitSemaphores*>(args);
      a.timeout = std::min(a.timeout, wire::vk::kMostWaitNs);
      break;
    }
    case VkOp::vkQueueSubmit:
    case VkOp::vkQueueSubmit2: {
      const auto& a = *static_cast<const VkArgs_vkQueueSubmit*>(args);  // the same head (present_commands.cpp)
      return check_submit_fence(a.queue, a.fence);
    }
    case VkOp::vkBeginCommandBuffer:
      return settle(static_cast<const VkArgs_vkBeginCommandBuffer*>(args)->commandBuffer);
    case VkOp::vkResetCommandBuffer:
      return settle(static_cast<const VkArgs_vkResetCommandBuffer*>(args)->commandBuffer);
    case VkOp::vkFreeCommandBuffers: {
      const auto& a = *static_cast<const VkArgs_vkFreeCommandBuffers*>(args);  // its array checked present
      for (uint32_t i = 0; i < a.commandBufferCount; ++i) WIRE_TRY(settle(a.pCommandBuffers[i]));
      break;
    }
    case VkOp::vkResetCommandPool:
      return settle_pool(static_cast<const VkArgs_vkResetCommandPool*>(args)->commandPool);
    case VkOp::vkDestroyCommandPool:
      return settle_pool(static_cast<const VkArgs_vkDestroyCommandPool*>(args)->commandPool);
    case VkOp::vkResetFences: {
      const auto& a = *static_cast<const VkArgs_vkResetFences*>(args);
      for (uint32_t i = 0; i < a.fenceCount; ++i) WIRE_TRY(retire(a.device, a.pFences[i]));
      break;
    }
    case VkOp::vkDestroyFence: {
      const VkFence gone = static_cast<const VkArgs_vkDestroyFence*>(args)->fence;
      for (auto& [cb, f] : in_flight_)
        if (f.fence == gone) f.fence = VK_NULL_HANDLE;  // its status can no longer be asked
      break;
    }
    default:
      break;
  }
  return {};
}

// A submission's fence is the host's word that its command buffers are done,
// so it must be unsignalled and no other submission's
// (VUID-vkQueueSubmit-fence-00063, -00064): lavapipe leaves a fence
// signalled before the submission signalled, and the host re-recorded a
// command buffer its queue was still running.
wire::Status VkHandler::check_submit_fence(VkQueue queue, VkFence fence) {
  if (!fence) return {};
  const auto device = reinterpret_cast<VkDevice>(
      handles_.device_of(handles_.to_wire(VK_OBJECT_TYPE_QUEUE, true, reinterpret_cast<uint64_t>(queue))));
  if (dispatch_.vkGetFenceStatus(device, fence) != VK_NOT_READY)
    return refused("vkQueueSubmit", "with a fence that is signalled");
  for (const auto& entry : in_flight_)
    if (entry.second.fence == fence) return refused("vkQueueSubmit", "with a fence another submission holds");
  return {};
}

void VkHandler::note_in_flight(uint32_t opcode, const void* args) {
  auto note = [this](VkQueue queue, VkFence fence, auto* submits, uint32_t count) {
    const auto device = reinterpret_cast<VkDevice>(
        handles_.device_of(handles_.to_wire(VK_OBJECT_TYPE_QUEUE, true, reinterpret_cast<uint64_t>(queue))));
    each_submitted_buffer(submits, count, [&](VkCommandBuffer cb) { in_flight_[cb] = {device, queue, fence}; });
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkQueueSubmit: {
      const auto& a = *static_cast<const VkArgs_vkQueueSubmit*>(args);
      note(a.queue, a.fence, a.pSubmits, a.submitCount);
      break;
    }
    case VkOp::vkQueueSubmit2: {
      const auto& a = *static_cast<const VkArgs_vkQueueSubmit2*>(args);
      note(a.queue, a.fence, a.pSubmits, a.submitCount);
      break;
    }
    case VkOp::vkDestroyDevice: {
      const VkDevice gone = static_cast<const VkArgs_vkDestroyDevice*>(args)->device;
      std::erase_if(in_flight_, [gone](const auto& entry) { return entry.second.device == gone; });
      break;
    }
    default:
      break;
  }
}

}  // namespace host::vk
