// Opaque fds of device memory: the program gets a file naming the host's
// export (conn/export_files.h); an import reads the file and sends the
// number.
#include <unistd.h>

#include <cstring>

#include "conn/export_files.h"
#include "vk/entry.h"
#include "vk/memory.h"
#include "vk/memory_fds.h"
#include "wire/vk_codec.h"

namespace icd::vk {

using namespace wire::vk;

VKAPI_ATTR VkResult VKAPI_CALL get_memory_fd(VkDevice device, const VkMemoryGetFdInfoKHR* info, int* fd) {
  int number = 0;
  VkArgs_vkGetMemoryFdKHR a{device, info, &number};
  const VkResult r = as_result(run_generated(VkOp::vkGetMemoryFdKHR, a));
  if (r != VK_SUCCESS) return r;
  *fd = export_file(static_cast<uint32_t>(number));
  if (*fd < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  // Its importers write it too: waits bring back what they wrote.
  note_gpu_writes(reinterpret_cast<uint64_t>(info->memory));
  return VK_SUCCESS;
}

// Only handle types other than opaque fds may be asked about, and none of
// them is carried.
VKAPI_ATTR VkResult VKAPI_CALL get_memory_fd_properties(VkDevice, VkExternalMemoryHandleTypeFlagBits, int,
                                                       VkMemoryFdPropertiesKHR*) {
  return VK_ERROR_INVALID_EXTERNAL_HANDLE;
}

VkResult FdImport::read(const VkMemoryAllocateInfo& info) {
  info_ = info;
  bool any = false;
  for (auto* p = static_cast<const VkBaseInStructure*>(info.pNext); p && !any; p = p->pNext)
    any = p->sType == VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR;
  if (!any) return VK_SUCCESS;  // sent as the program gave it
  VkBaseOutStructure* last = reinterpret_cast<VkBaseOutStructure*>(&info_);
  VkImportMemoryFdInfoKHR* import = nullptr;
  for (auto* p = static_cast<const VkBaseInStructure*>(info.pNext); p; p = p->pNext) {
    const StructDesc* desc = struct_by_stype(p->sType);
    if (!desc) return VK_SUCCESS;  // the host refuses what it does not know
    auto& copy = copies_.emplace_back((desc->size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
    std::memcpy(copy.data(), p, desc->size);
    last->pNext = reinterpret_cast<VkBaseOutStructure*>(copy.data());
    last = last->pNext;
    if (p->sType == VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR)
      import = reinterpret_cast<VkImportMemoryFdInfoKHR*>(copy.data());
  }
  if (!import) return VK_SUCCESS;
  if (import->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  const auto number = export_number(import->fd);
  if (!number) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  fd_ = import->fd;
  import->fd = static_cast<int>(*number);
  return VK_SUCCESS;
}

void FdImport::imported() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

}  // namespace icd::vk
