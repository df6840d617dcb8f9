// What the swapchain and the binding entry points need of memory.cpp.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

namespace icd::vk {

// The property flags of a memory type of `device`'s physical device.
VkMemoryPropertyFlags memory_type_flags(VkDevice device, uint32_t type);

// The GPU may write this allocation (bound to a writable buffer or an
// image): waits bring its contents back while it is mapped.
void note_gpu_writes(uint64_t memory);

}  // namespace icd::vk
