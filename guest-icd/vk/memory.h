// What the swapchain needs of memory.cpp.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

namespace icd::vk {

// The property flags of a memory type of `device`'s physical device.
VkMemoryPropertyFlags memory_type_flags(VkDevice device, uint32_t type);

}  // namespace icd::vk
