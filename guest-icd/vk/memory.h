// What the swapchain needs of memory.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include <vulkan/vulkan.h>

namespace icd::vk {

// The property flags of a memory type of `device`'s physical device.
VkMemoryPropertyFlags memory_type_flags(VkDevice device, uint32_t type);

// `size` bytes of host-visible memory as the host has them, without a mapping.
bool read_memory(VkDeviceMemory memory, uint64_t size, std::byte* out);

}  // namespace icd::vk
