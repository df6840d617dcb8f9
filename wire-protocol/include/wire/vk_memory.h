// Conduit's own commands of the Vulkan range (not in vk.xml): moving the
// guest's copy of host-visible device memory, and presenting. Their opcodes
// sit far past vk-opcodes.txt, which grows from the start of the range.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "wire/control.h"
#include "wire/format.h"

namespace wire::vk {

// The longest one vkWaitForFences waits on the host; the guest asks again
// until the program's own timeout has passed.
constexpr uint64_t kMostWaitNs = 250'000'000;

enum class MemoryOp : uint32_t {
  // MemoryRange, then a Data of `size` bytes: written into the host's mapping.
  kWriteMemory = kFirstVkOpcode + 0xF000,
  // MemoryRange; the reply is a Data of `size` bytes read from the host's mapping.
  kReadMemory,
  // PresentMemory: once its fence has signalled, the host sends the
  // memory's first stride * height bytes to the guest as a frame
  // (ControlOp::kFrame), without being asked: a present waits for nothing.
  kPresentMemory,
  // WindowGone: a window surface's frames end (its viewers' tile goes).
  kWindowGone,
  // AreaPlacement: the guest's next vkAllocateMemory is to be memory of the
  // channel's shared area (Channel::shared_area), imported by the host's
  // driver, which both sides then map. If the host cannot place it there,
  // that allocation fails with VK_ERROR_INVALID_EXTERNAL_HANDLE and
  // allocates nothing; the guest asks again without a placement.
  kPlaceInArea,
};

struct MemoryRange {
  uint64_t memory;  // the VkDeviceMemory's id
  uint64_t offset;
  uint64_t size;
};

struct AreaPlacement {
  uint64_t offset;  // from the area's start
  uint64_t size;    // at least the allocation's size
};

// Whether an allocation with this pNext chain may go into the shared area:
// only device-address flags may come with it (imports, exports and
// dedicated allocations have rules of their own against host pointers).
inline bool placeable_chain(const void* next) {
  for (auto* p = static_cast<const VkBaseInStructure*>(next); p; p = p->pNext)
    if (p->sType != VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO) return false;
  return true;
}

struct WindowGone {
  uint32_t surface_id;
};

struct PresentMemory {
  uint64_t fence;   // the VkFence's id: signalled once the frame is in `memory`
  uint64_t memory;  // the VkDeviceMemory's id, host-visible
  Frame frame;      // BGRA8 rows from offset 0
  uint32_t reserved;
};

}  // namespace wire::vk
