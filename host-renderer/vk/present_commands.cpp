// Presents: once the copy of a swapchain image into host-visible memory is
// done (its fence signalled), the pixels go to the guest as a frame, the
// way a GL window's frames do. The guest does not wait for them.
#include <string>

#include "vk/vk_handler.h"
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

  const auto signalled = reinterpret_cast<VkFence>(*fence);
  const VkResult r = dispatch_.vkWaitForFences(m.device, 1, &signalled, VK_TRUE, kPresentWaitNs);
  if (r != VK_SUCCESS)
    return make_error(Errc::kIo, "a present's copy did not finish: VkResult " + std::to_string(r), at);
  if (!m.coherent) {
    const VkMappedMemoryRange whole{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, it->first, 0, VK_WHOLE_SIZE};
    dispatch_.vkInvalidateMappedMemoryRanges(m.device, 1, &whole);
  }
  frames_(p->frame, {static_cast<const std::byte*>(m.mapped), uint64_t{p->frame.stride} * p->frame.height});
  return {};
}

}  // namespace host::vk
