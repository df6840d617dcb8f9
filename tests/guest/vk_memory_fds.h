// Device memory shared between devices through opaque fds
// (VK_KHR_external_memory_fd), as the guest tests make and import it.
#pragma once

#include <vulkan/vulkan.h>

namespace guesttest {

// Memory of `type` that may be exported as an opaque fd; null on failure.
inline VkDeviceMemory exportable_memory(VkDevice device, VkDeviceSize size, uint32_t type) {
  VkExportMemoryAllocateInfo exported{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  exported.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &exported, size, type};
  VkDeviceMemory memory = VK_NULL_HANDLE;
  return vkAllocateMemory(device, &info, nullptr, &memory) == VK_SUCCESS ? memory : VK_NULL_HANDLE;
}

// The opaque fd of `memory`, or -1.
inline int memory_fd(VkDevice device, VkDeviceMemory memory) {
  VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, nullptr, memory,
                            VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device, "vkGetMemoryFdKHR"));
  int fd = -1;
  return get_fd && get_fd(device, &info, &fd) == VK_SUCCESS ? fd : -1;
}

// `fd`'s memory imported on `device` as `size` bytes of `type`.
inline VkResult import_memory(VkDevice device, int fd, VkDeviceSize size, uint32_t type, VkDeviceMemory* memory) {
  VkImportMemoryFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, nullptr,
                                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import, size, type};
  return vkAllocateMemory(device, &info, nullptr, memory);
}

}  // namespace guesttest
