// Conduit's own commands of the Vulkan range (not in vk.xml): moving the
// guest's copy of host-visible device memory, and presenting. Their opcodes
// sit far past vk-opcodes.txt, which grows from the start of the range.
#pragma once

#include <cstdint>

#include "wire/control.h"
#include "wire/format.h"

namespace wire::vk {

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
};

struct MemoryRange {
  uint64_t memory;  // the VkDeviceMemory's id
  uint64_t offset;
  uint64_t size;
};

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
