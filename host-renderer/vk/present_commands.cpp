// Presents: once the copy of a swapchain image into host-visible memory is
// done (its fence signalled), the pixels go to the guest as a frame, the
// way a GL window's frames do. The guest does not wait for them. The
// fences submitted before it on its queue are done too (a fence's signal
// covers all earlier submissions to its queue): the guest is told, so that
// a program waiting for one of them needs no round trip. After each batch,
// fences found signalled are told as well.
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

  WIRE_TRY(tell_fences_before(reinterpret_cast<VkFence>(*fence)));
  if (!m.coherent) {
    const VkMappedMemoryRange whole{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, it->first, 0, VK_WHOLE_SIZE};
    dispatch_.vkInvalidateMappedMemoryRanges(m.device, 1, &whole);
  }
  to_guest_.frame(p->frame, {static_cast<const std::byte*>(m.mapped), uint64_t{p->frame.stride} * p->frame.height});
  return {};
}

// Waits for the present's fence and every fence submitted before it on the
// same queue (done already, or about to be), and tells the guest.
wire::Status VkHandler::tell_fences_before(VkFence presented) {
  auto last = std::find_if(submitted_fences_.begin(), submitted_fences_.end(),
                           [presented](const SubmittedFence& s) { return s.fence == presented; });
  if (last == submitted_fences_.end()) return make_error(Errc::kBadValue, "a present's fence was never submitted");
  const SubmittedFence present = *last;
  std::vector<VkFence> done;
  std::vector<uint64_t> ids;
  auto on_queue = [&](const SubmittedFence& s) { return s.queue == present.queue; };
  for (auto it = submitted_fences_.begin(); it != last + 1; ++it) {
    if (!on_queue(*it) || it->told) continue;  // a fence told of already signalled before
    done.push_back(it->fence);
    ids.push_back(handles_.to_wire(VK_OBJECT_TYPE_FENCE, false, reinterpret_cast<uint64_t>(it->fence)));
  }
  const VkResult r = done.empty() ? VK_SUCCESS
                                  : dispatch_.vkWaitForFences(present.device, static_cast<uint32_t>(done.size()),
                                                              done.data(), VK_TRUE, kPresentWaitNs);
  if (r != VK_SUCCESS) return make_error(Errc::kIo, "a present's copy did not finish: VkResult " + std::to_string(r));
  submitted_fences_.erase(std::remove_if(submitted_fences_.begin(), last + 1, on_queue), last + 1);
  if (!ids.empty()) to_guest_.fences_signalled(ids);
  return {};
}

// Both argument records start queue, count, submits, fence.
static_assert(offsetof(VkArgs_vkQueueSubmit, fence) == offsetof(VkArgs_vkQueueSubmit2, fence));

void VkHandler::tell_signalled_fences() {
  std::vector<uint64_t> ids;
  for (SubmittedFence& s : submitted_fences_) {
    if (s.told || dispatch_.vkGetFenceStatus(s.device, s.fence) != VK_SUCCESS) continue;
    s.told = true;
    ids.push_back(handles_.to_wire(VK_OBJECT_TYPE_FENCE, false, reinterpret_cast<uint64_t>(s.fence)));
  }
  if (!ids.empty()) to_guest_.fences_signalled(ids);
}

// Which fences are on their way to being signalled, by queue. A program
// that submits fences without ever resetting, destroying or presenting
// after them is not told of the oldest past this many.
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
