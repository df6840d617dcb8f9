// Device memory: charged to the guest; host-visible memory mapped on the
// host for its whole life, so the guest's copy of what it wrote goes in, and
// what the GPU wrote comes out, without mapping it again.
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "vk/chain.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"
#include "wire/vk_memory.h"

namespace host::vk {

using wire::Errc;
using wire::make_error;
using namespace wire::vk;

wire::Result<uint64_t> VkHandler::allocate_memory(void* args) {
  auto& a = *static_cast<VkArgs_vkAllocateMemory*>(args);
  const VkDeviceSize size = a.pAllocateInfo->allocationSize;
  const std::optional<AreaPlacement> place = std::exchange(placement_, std::nullopt);
  auto gpu = device_gpus_.find(a.device);
  if (gpu == device_gpus_.end()) return make_error(Errc::kBadName, "memory of a device this host did not make");
  VkPhysicalDeviceMemoryProperties props{};
  dispatch_.vkGetPhysicalDeviceMemoryProperties(gpu->second, &props);
  if (a.pAllocateInfo->memoryTypeIndex >= props.memoryTypeCount) return uint64_t(int64_t{VK_ERROR_OUT_OF_DEVICE_MEMORY});
  auto import = take_fd_import(a.device, *a.pAllocateInfo);
  if (!import) return import.error();
  if (import->present && !import->known) return uint64_t(int64_t{VK_ERROR_INVALID_EXTERNAL_HANDLE});
  // One account with the guest's GL objects (--max-guest-memory).
  if (!account_.try_charge(size)) return uint64_t(int64_t{VK_ERROR_OUT_OF_DEVICE_MEMORY});
  const VkMemoryPropertyFlags flags = props.memoryTypes[a.pAllocateInfo->memoryTypeIndex].propertyFlags;

  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  VkResult r = VK_SUCCESS;
  if (place) {
    r = import_from_area(a.device, *a.pAllocateInfo, flags, *place, &memory);
    mapped = area_.data() + place->offset;
  } else {
    r = dispatch_.vkAllocateMemory(a.device, a.pAllocateInfo, nullptr, &memory);
  }
  if (r == VK_SUCCESS && !place && (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
      dispatch_.vkMapMemory(a.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS) {
    dispatch_.vkFreeMemory(a.device, memory, nullptr);
    r = VK_ERROR_MEMORY_MAP_FAILED;
  }
  if (r != VK_SUCCESS) {
    account_.release(size);
    return uint64_t(int64_t{r});
  }
  const bool coherent = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  if (import->known) {
    exports_.erase(import->number);  // the driver owns its fd now
  } else if (mapped && !place) {
    clear_fresh_memory(a.device, memory, mapped, size, coherent);
  }
  auto* exported = reinterpret_cast<const VkExportMemoryAllocateInfo*>(
      find_in_chain(a.pAllocateInfo->pNext, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO));
  memory_[memory] = {a.device, size, mapped, coherent, a.pAllocateInfo->memoryTypeIndex,
                     exported ? exported->handleTypes : 0};
  *a.pMemory = memory;
  return uint64_t{VK_SUCCESS};
}

// Drivers need not clear what they hand out, and lavapipe's memory is the
// renderer's own heap: unwritten, it would show the guest what the renderer
// freed (driver pointers), and an indirect buffer the guest never wrote would
// ask for billions of workgroups. NVIDIA's is cleared by its kernel driver
// already; this is once per allocation, never per frame.
void VkHandler::clear_fresh_memory(VkDevice device, VkDeviceMemory memory, void* mapped, VkDeviceSize size,
                                   bool coherent) {
  std::memset(mapped, 0, size);
  if (coherent) return;
  const VkMappedMemoryRange whole{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, memory, 0, VK_WHOLE_SIZE};
  dispatch_.vkFlushMappedMemoryRanges(device, 1, &whole);
}

wire::Result<uint64_t> VkHandler::free_memory(void* args) {
  auto& a = *static_cast<VkArgs_vkFreeMemory*>(args);
  auto it = memory_.find(a.memory);
  if (it == memory_.end()) return uint64_t{0};  // freeing null is allowed
  // With the device it was allocated from, whichever the guest named.
  dispatch_.vkFreeMemory(it->second.device, a.memory, nullptr);
  account_.release(it->second.size);
  memory_.erase(it);
  return uint64_t{0};
}

void VkHandler::free_memory_of(VkDevice device) {
  for (auto it = memory_.begin(); it != memory_.end();) {
    if (device && it->second.device != device) {
      ++it;
      continue;
    }
    dispatch_.vkFreeMemory(it->second.device, it->first, nullptr);
    account_.release(it->second.size);
    it = memory_.erase(it);
  }
}

// A range of a live, host-visible allocation named by the guest.
wire::Result<VkHandler::MemoryMap::iterator> VkHandler::mapped_range(wire::Reader& payload, uint64_t* offset,
                                                             uint64_t* size) {
  const size_t at = payload.offset();
  auto range = payload.get<MemoryRange>();
  if (!range) return range.error();
  auto handle = handles_.from_wire(VK_OBJECT_TYPE_DEVICE_MEMORY, false, range->memory);
  if (!handle) return make_error(handle.error().code, handle.error().detail, at);
  auto it = memory_.find(reinterpret_cast<VkDeviceMemory>(*handle));
  if (it == memory_.end() || !it->second.mapped)
    return make_error(Errc::kBadValue, "memory that is not host-visible", at);
  if (range->offset > it->second.size || range->size > it->second.size - range->offset)
    return make_error(Errc::kBadLength, "a range past the allocation's " + std::to_string(it->second.size) + " bytes",
                      at);
  *offset = range->offset;
  *size = range->size;
  return it;
}

wire::Status VkHandler::run_memory_op(uint32_t opcode, wire::Reader& payload, wire::Writer& reply) {
  uint64_t offset = 0, size = 0;
  auto found = mapped_range(payload, &offset, &size);
  if (!found) return found.error();
  const HostMemory& m = (*found)->second;
  auto* host = static_cast<std::byte*>(m.mapped) + offset;
  // Memory that is not coherent is made visible whole: offset 0 and the
  // whole size are always aligned as the driver needs.
  const VkMappedMemoryRange whole{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, (*found)->first, 0, VK_WHOLE_SIZE};
  switch (static_cast<MemoryOp>(opcode)) {
    case MemoryOp::kWriteMemory: {
      const size_t at = payload.offset();
      auto data = payload.get_data_in_place();  // copied as it is, never looked at
      if (!data) return data.error();
      if (data->is_null() || data->bytes.size() != size) return make_error(Errc::kBadLength, "memory bytes", at);
      std::memcpy(host, data->bytes.data(), size);
      if (!m.coherent) dispatch_.vkFlushMappedMemoryRanges(m.device, 1, &whole);
      return {};
    }
    case MemoryOp::kReadMemory:
      if (!m.coherent) dispatch_.vkInvalidateMappedMemoryRanges(m.device, 1, &whole);
      reply.put_data(host, size);
      return {};
    case MemoryOp::kPresentMemory:
    case MemoryOp::kWindowGone:
    case MemoryOp::kPlaceInArea:
      break;  // present_commands.cpp, shared_area.cpp
  }
  return make_error(Errc::kUnknownOpcode, "a Vulkan command the host does not run: " + std::to_string(opcode));
}

}  // namespace host::vk
