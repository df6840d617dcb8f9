// Opaque fds of device memory. A file descriptor cannot cross to the host,
// and the host's driver must never see a number of the guest's as one: the
// host keeps the driver's export and answers a number for it
// (host-renderer/vk/memory_fds.cpp). The program gets a file of its own
// that names that number and this process, which it may duplicate and
// pass on as any fd; an import reads the file and sends the number.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <cstring>

#include "vk/entry.h"
#include "vk/memory.h"
#include "vk/memory_fds.h"
#include "wire/vk_codec.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

// What an exported memory's file holds.
struct ExportFile {
  char magic[8];
  uint64_t process;  // this process's key: another process's exports are not its host's
  uint32_t number;   // the host's export
};
constexpr char kMagic[8] = {'c', 'o', 'n', 'd', 'u', 'i', 't', 'm'};

uint64_t process_key() {
  static const uint64_t key = [] {
    uint64_t k = 0;
    while (getrandom(&k, sizeof k, 0) != sizeof k) {
    }
    return k;
  }();
  return key;
}

// A sealed file naming export `number`, or -1.
int export_file(uint32_t number) {
  const int fd = memfd_create("conduit-vk-memory", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  ExportFile f{};
  std::memcpy(f.magic, kMagic, sizeof kMagic);
  f.process = process_key();
  f.number = number;
  if (pwrite(fd, &f, sizeof f, 0) != static_cast<ssize_t>(sizeof f) ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

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
  ExportFile f{};
  if (pread(import->fd, &f, sizeof f, 0) != static_cast<ssize_t>(sizeof f) ||
      std::memcmp(f.magic, kMagic, sizeof kMagic) != 0 || f.process != process_key())
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  fd_ = import->fd;
  import->fd = static_cast<int>(f.number);
  return VK_SUCCESS;
}

void FdImport::imported() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

}  // namespace icd::vk
