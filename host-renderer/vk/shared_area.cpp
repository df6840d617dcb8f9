// Device memory in the channel's shared area: on shared-memory transports
// the guest places host-visible, coherent allocations in memory both sides
// map, and the host's driver imports those pages (VK_EXT_external_memory_host),
// so the program's mapping is the GPU's memory: no copies at submits, waits
// or unmaps (docs/vulkan.md, "Memory").
#include <cstring>
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

namespace {

constexpr const char* kImportExtension = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
constexpr VkMemoryPropertyFlags kShareable = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

bool offers(const std::vector<VkExtensionProperties>& extensions, std::string_view name) {
  for (const auto& e : extensions)
    if (name == e.extensionName) return true;
  return false;
}

bool importable(const VkExternalMemoryProperties& p) {
  return p.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
}

}  // namespace

// The import extension joins the guest's list where the driver has it and
// there is an area to import from.
bool VkHandler::add_area_import(const std::vector<VkExtensionProperties>& offered,
                                std::vector<const char*>& names) const {
  if (area_.empty() || imports_refused_ || !offers(offered, kImportExtension)) return false;
  for (const char* n : names)
    if (std::string_view(n) == kImportExtension) return true;
  names.push_back(kImportExtension);
  return true;
}

// Buffers and images of a device that imports from the area say so at
// creation where the driver can import for them (the spec asks it of every
// resource bound to imported memory); the guest cannot know which memory
// they will be bound to.
wire::Result<uint64_t> VkHandler::create_buffer(void* args) {
  auto& a = *static_cast<VkArgs_vkCreateBuffer*>(args);
  VkBufferCreateInfo info = *a.pCreateInfo;
  // The host copies indirect dispatches' records out to clamp them (dispatch_clamps.h).
  if (info.usage & VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) info.usage |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, info.pNext,
                                            VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
  if (area_devices_.contains(a.device) && !find_in_chain(info.pNext, external.sType)) {
    VkPhysicalDeviceExternalBufferInfo query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, nullptr,
                                             info.flags, info.usage,
                                             VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
    VkExternalBufferProperties props{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    dispatch_.vkGetPhysicalDeviceExternalBufferProperties(device_gpus_.at(a.device), &query, &props);
    if (importable(props.externalMemoryProperties)) info.pNext = &external;
  }
  return uint64_t(int64_t{dispatch_.vkCreateBuffer(a.device, &info, nullptr, a.pBuffer)});
}

wire::Result<uint64_t> VkHandler::create_image(void* args) {
  auto& a = *static_cast<VkArgs_vkCreateImage*>(args);
  VkImageCreateInfo info = *a.pCreateInfo;
  VkExternalMemoryImageCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO, info.pNext,
                                           VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
  // External images may not start preinitialized (VUID-VkImageCreateInfo-pNext-01443).
  const auto tiling = static_cast<uint32_t>(wire::vk::as_number(info.tiling));
  const bool plain = (tiling == VK_IMAGE_TILING_LINEAR || tiling == VK_IMAGE_TILING_OPTIMAL) &&
                     wire::vk::as_number(info.initialLayout) != VK_IMAGE_LAYOUT_PREINITIALIZED;
  if (area_devices_.contains(a.device) && plain && !find_in_chain(info.pNext, external.sType)) {
    VkPhysicalDeviceExternalImageFormatInfo handle{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
                                                   nullptr, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
    VkPhysicalDeviceImageFormatInfo2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &handle};
    std::memcpy(&query.format, &info.format, sizeof query.format);  // copied as numbers, as as_number() reads them
    std::memcpy(&query.type, &info.imageType, sizeof query.type);
    query.tiling = static_cast<VkImageTiling>(tiling);
    query.usage = info.usage;
    query.flags = info.flags;
    VkExternalImageFormatProperties external_props{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES};
    VkImageFormatProperties2 props{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &external_props};
    if (dispatch_.vkGetPhysicalDeviceImageFormatProperties2(device_gpus_.at(a.device), &query, &props) ==
            VK_SUCCESS &&
        importable(external_props.externalMemoryProperties))
      info.pNext = &external;
  }
  return uint64_t(int64_t{dispatch_.vkCreateImage(a.device, &info, nullptr, a.pImage)});
}

// The next allocation's place. Its bounds are checked here; whether the
// driver can import it, at the allocation.
wire::Status VkHandler::place_in_area(wire::Reader& payload) {
  const size_t at = payload.offset();
  auto place = payload.get<AreaPlacement>();
  if (!place) return place.error();
  if (place->size == 0 || place->offset > area_.size() || place->size > area_.size() - place->offset)
    return make_error(Errc::kBadLength, "a placement past the shared area's " + std::to_string(area_.size()) +
                                            " bytes", at);
  placement_ = *place;
  return {};
}

// The driver's import of the placed pages as `info`'s allocation, or
// VK_ERROR_INVALID_EXTERNAL_HANDLE when it cannot (the guest then asks for
// ordinary memory).
VkResult VkHandler::import_from_area(VkDevice device, const VkMemoryAllocateInfo& info, VkMemoryPropertyFlags flags,
                                     const AreaPlacement& place, VkDeviceMemory* memory) {
  constexpr VkResult kCannot = VK_ERROR_INVALID_EXTERNAL_HANDLE;
  if ((flags & kShareable) != kShareable || !area_devices_.contains(device) || place.size < info.allocationSize ||
      !placeable_chain(info.pNext))
    return kCannot;
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT host_props{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &host_props};
  dispatch_.vkGetPhysicalDeviceProperties2(device_gpus_.at(device), &props);
  void* pages = area_.data() + place.offset;
  const uint64_t align = host_props.minImportedHostPointerAlignment;
  if (!align || reinterpret_cast<uintptr_t>(pages) % align || place.size % align) return kCannot;

  auto pointer_properties = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
      vkGetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT"));
  VkMemoryHostPointerPropertiesEXT importable{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  if (!pointer_properties ||
      pointer_properties(device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, pages, &importable) !=
          VK_SUCCESS ||
      !(importable.memoryTypeBits & (1u << info.memoryTypeIndex)))
    return kCannot;

  VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT, info.pNext,
                                          VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, pages};
  VkMemoryAllocateInfo imported = info;
  imported.pNext = &import;
  imported.allocationSize = place.size;
  if (dispatch_.vkAllocateMemory(device, &imported, nullptr, memory) != VK_SUCCESS) return kCannot;
  counters_.shared_allocations.fetch_add(1, std::memory_order_relaxed);
  return VK_SUCCESS;
}

}  // namespace host::vk
