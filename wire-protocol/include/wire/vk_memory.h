// Conduit's own commands of the Vulkan range (not in vk.xml): moving the
// guest's copy of host-visible device memory. Their opcodes sit far past
// vk-opcodes.txt, which grows from the start of the range.
#pragma once

#include <cstdint>

#include "wire/format.h"

namespace wire::vk {

enum class MemoryOp : uint32_t {
  // MemoryRange, then a Data of `size` bytes: written into the host's mapping.
  kWriteMemory = kFirstVkOpcode + 0xF000,
  // MemoryRange; the reply is a Data of `size` bytes read from the host's mapping.
  kReadMemory,
};

struct MemoryRange {
  uint64_t memory;  // the VkDeviceMemory's id
  uint64_t offset;
  uint64_t size;
};

}  // namespace wire::vk
