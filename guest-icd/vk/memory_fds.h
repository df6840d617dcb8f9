// Opaque fds of device memory in the guest (VK_KHR_external_memory_fd):
// what memory.cpp needs to import one.
#pragma once

#include <cstddef>
#include <vector>

#include <vulkan/vulkan.h>

namespace icd::vk {

// An allocation's info as it goes to the host: a program's fd in its chain
// replaced by the number of the host's export that the fd names.
class FdImport {
 public:
  // VK_SUCCESS (also when `info` imports no fd), or
  // VK_ERROR_INVALID_EXTERNAL_HANDLE for an fd that names no export of
  // this program's.
  VkResult read(const VkMemoryAllocateInfo& info);
  bool imports() const { return fd_ >= 0; }
  const VkMemoryAllocateInfo& info() const { return info_; }
  // The import succeeded: it owns the program's fd, which is closed.
  void imported();

 private:
  VkMemoryAllocateInfo info_{};
  std::vector<std::vector<std::max_align_t>> copies_;  // the chain, copied to change one member
  int fd_ = -1;
};

}  // namespace icd::vk
