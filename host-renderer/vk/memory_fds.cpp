// Device memory shared between a guest's devices through opaque fds
// (VK_KHR_external_memory_fd). A file descriptor cannot cross the channel,
// and a guest's number must never reach the driver as one: the driver's
// export stays here, the guest is told its number, and an allocation that
// imports names that number. The import is checked against the export
// before the driver sees it: the driver maps as many bytes as the import
// says, whatever the fd holds. The guest's GL imports exports too
// (take_export, gl/memory_object_handlers.cpp).
#include <unistd.h>

#include <string>

#include "vk/chain.h"
#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

constexpr VkExternalMemoryHandleTypeFlagBits kOpaqueFd = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;

// The import structures in a chain, and the first of them.
const VkImportMemoryFdInfoKHR* fd_import_in(const void* chain, int* count) {
  const VkImportMemoryFdInfoKHR* first = nullptr;
  *count = 0;
  for (auto* p = static_cast<const VkBaseInStructure*>(chain); p; p = p->pNext)
    if (p->sType == VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR) {
      if (!first) first = reinterpret_cast<const VkImportMemoryFdInfoKHR*>(p);
      ++*count;
    }
  return first;
}

}  // namespace

wire::Result<uint64_t> VkHandler::get_memory_fd(void* args) {
  auto& a = *static_cast<VkArgs_vkGetMemoryFdKHR*>(args);
  constexpr const char* kName = "vkGetMemoryFdKHR";
  auto memory = memory_.find(a.pGetFdInfo->memory);
  if (memory == memory_.end() || memory->second.device != a.device)
    return refused(kName, "of memory its device did not allocate");
  if (a.pGetFdInfo->handleType != kOpaqueFd) return refused(kName, "of a handle type other than an opaque fd");
  if (!(memory->second.export_types & kOpaqueFd))
    return refused(kName, "of memory not allocated to be exported as an opaque fd");
  if (exports_.size() >= kMostExports) return uint64_t(int64_t{VK_ERROR_TOO_MANY_OBJECTS});
  int fd = -1;
  const VkResult r = dispatch_.vkGetMemoryFdKHR(a.device, a.pGetFdInfo, &fd);
  if (r != VK_SUCCESS) return uint64_t(int64_t{r});
  const uint32_t number = next_export_++;
  exports_[number] = {fd, memory->second.size, memory->second.type_index, device_gpus_.at(a.device)};
  *a.pFd = static_cast<int>(number);
  return uint64_t{VK_SUCCESS};
}

// The export an allocation imports, its fd put in place of the guest's
// number; the caller drops it from exports_ once the driver owns the fd.
wire::Result<VkHandler::FdImport> VkHandler::take_fd_import(VkDevice device, const VkMemoryAllocateInfo& info) {
  constexpr const char* kName = "vkAllocateMemory";
  int count = 0;
  const VkImportMemoryFdInfoKHR* import = fd_import_in(info.pNext, &count);
  if (!import) return FdImport{};
  if (count > 1) return refused(kName, "importing more than one fd");
  if (import->handleType != kOpaqueFd) return refused(kName, "importing a handle type other than an opaque fd");
  const auto enabled = device_extensions_.find(reinterpret_cast<uint64_t>(device));
  if (enabled == device_extensions_.end() || !enabled->second.contains(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME))
    return refused(kName, "importing an fd on a device created without VK_KHR_external_memory_fd");
  const uint32_t number = static_cast<uint32_t>(import->fd);
  auto found = exports_.find(number);
  if (found == exports_.end()) return FdImport{true, false, number};  // imported already, or never exported
  const MemoryExport& e = found->second;
  if (e.gpu != device_gpus_.at(device)) return refused(kName, "importing memory of another physical device");
  if (info.allocationSize != e.size || info.memoryTypeIndex != e.type_index)
    return refused(kName, "importing " + std::to_string(info.allocationSize) + " bytes of type " +
                              std::to_string(info.memoryTypeIndex) + " from an export of " + std::to_string(e.size) +
                              " bytes of type " + std::to_string(e.type_index));
  const_cast<VkImportMemoryFdInfoKHR*>(import)->fd = e.fd;  // the decoded chain is the handler's own
  return FdImport{true, true, number};
}

std::optional<int> VkHandler::take_export(uint32_t number, uint64_t bytes) {
  auto found = exports_.find(number);
  if (found == exports_.end() || bytes > found->second.size) return std::nullopt;
  const int fd = found->second.fd;
  exports_.erase(found);
  return fd;
}

void VkHandler::close_exports() {
  for (const auto& [number, e] : exports_) ::close(e.fd);
  exports_.clear();
}

}  // namespace host::vk
