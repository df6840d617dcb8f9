// Presents: once the copy of a swapchain image into host-visible memory is
// done (its fence signalled), the pixels go to the guest as a frame, the
// way a GL window's frames do. The guest does not wait for them. Fences:
// the guest is told when each one it submitted is signalled, so that a
// program waiting for one (before it reuses a frame's resources) needs no
// round trip.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "vk/vk_handler.h"
#include "wire/vk_commands.h"
#include "wire/vk_memory.h"

namespace host::vk {

using wire::Errc;
using wire::make_error;
using namespace wire::vk;

namespace {

// Largest width or height of a presented frame (the host's surfaces' limit).
constexpr uint32_t kMaxFrameSide = 16384;
// How long a present may wait for its copy. A fence nothing signals (never
// submitted) loses the guest's Vulkan after this, instead of its renderer.
constexpr uint64_t kPresentWaitNs = 10'000'000'000;

bool frame_fits(const wire::Frame& f, uint64_t memory_size) {
  return f.width > 0 && f.height > 0 && f.width <= kMaxFrameSide && f.height <= kMaxFrameSide &&
         f.stride / 4 >= f.width && uint64_t{f.stride} * f.height <= memory_size;
}

}  // namespace

wire::Status VkHandler::present_memory(wire::Reader& payload) {
  const size_t at = payload.offset();
  auto p = payload.get<PresentMemory>();
  if (!p) return p.error();
  auto fence = handles_.from_wire(VK_OBJECT_TYPE_FENCE, false, p->fence);
  auto memory = handles_.from_wire(VK_OBJECT_TYPE_DEVICE_MEMORY, false, p->memory);
  if (!fence || !memory) return make_error(Errc::kBadName, "a present of objects this guest does not have", at);
  auto it = memory_.find(reinterpret_cast<VkDeviceMemory>(*memory));
  if (!*fence || it == memory_.end() || !it->second.mapped)
    return make_error(Errc::kBadValue, "a present needs a fence and host-visible memory", at);
  const HostMemory& m = it->second;
  if (handles_.device_of(p->fence) != reinterpret_cast<uint64_t>(m.device))
    return make_error(Errc::kBadValue, "a present's fence and memory are of different devices", at);
  if (!frame_fits(p->frame, m.size))
    return make_error(Errc::kBadLength, "a presented frame larger than its memory", at);

  const auto copied = reinterpret_cast<VkFence>(*fence);
  if (std::none_of(submitted_fences_.begin(), submitted_fences_.end(),
                   [copied](const SubmittedFence& s) { return s.fence == copied; }))
    return make_error(Errc::kBadValue, "a present's fence was never submitted", at);
  const VkResult r = dispatch_.vkWaitForFences(m.device, 1, &copied, VK_TRUE, kPresentWaitNs);
  if (r != VK_SUCCESS)
    return make_error(Errc::kIo, "a present's copy did not finish: VkResult " + std::to_string(r), at);
  tell_signalled_fences();
  if (!m.coherent) {
    const VkMappedMemoryRange whole{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, it->first, 0, VK_WHOLE_SIZE};
    dispatch_.vkInvalidateMappedMemoryRanges(m.device, 1, &whole);
  }
  to_guest_.frame(p->frame, {static_cast<const std::byte*>(m.mapped), uint64_t{p->frame.stride} * p->frame.height});
  return {};
}

void VkHandler::tell_signalled_fences() {
  std::vector<uint64_t> ids;
  std::erase_if(submitted_fences_, [&](const SubmittedFence& s) {
    if (dispatch_.vkGetFenceStatus(s.device, s.fence) != VK_SUCCESS) return false;
    ids.push_back(handles_.to_wire(VK_OBJECT_TYPE_FENCE, false, reinterpret_cast<uint64_t>(s.fence)));
    return true;
  });
  if (!ids.empty()) to_guest_.fences_signalled(ids);
}

// Both argument records start queue, count, submits, fence.
static_assert(offsetof(VkArgs_vkQueueSubmit, fence) == offsetof(VkArgs_vkQueueSubmit2, fence));

// Which fences are on their way to being signalled. A program that submits
// more without waiting for any is not told of the oldest past this many.
constexpr size_t kMaxSubmittedFences = 4096;

void VkHandler::note_fences(uint32_t opcode, const void* args) {
  auto forget = [this](auto pred) { std::erase_if(submitted_fences_, pred); };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkQueueSubmit:
    case VkOp::vkQueueSubmit2: {
      const auto& a = *static_cast<const VkArgs_vkQueueSubmit*>(args);
      const auto device = reinterpret_cast<VkDevice>(handles_.device_of(
          handles_.to_wire(VK_OBJECT_TYPE_QUEUE, true, reinterpret_cast<uint64_t>(a.queue))));
      if (a.fence) submitted_fences_.push_back({device, a.queue, a.fence});
      if (submitted_fences_.size() > kMaxSubmittedFences) submitted_fences_.erase(submitted_fences_.begin());
      break;
    }
    case VkOp::vkResetFences: {
      const auto& a = *static_cast<const VkArgs_vkResetFences*>(args);
      const std::span<const VkFence> reset(a.pFences, a.fenceCount);
      forget([&](const SubmittedFence& s) { return std::find(reset.begin(), reset.end(), s.fence) != reset.end(); });
      break;
    }
    case VkOp::vkDestroyFence: {
      const VkFence gone = static_cast<const VkArgs_vkDestroyFence*>(args)->fence;
      forget([gone](const SubmittedFence& s) { return s.fence == gone; });
      break;
    }
    case VkOp::vkDestroyDevice: {
      const VkDevice gone = static_cast<const VkArgs_vkDestroyDevice*>(args)->device;
      forget([gone](const SubmittedFence& s) { return s.device == gone; });
      break;
    }
    default:
      break;
  }
}

}  // namespace host::vk
