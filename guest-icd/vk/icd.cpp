// The Vulkan loader's ICD interface (the loader-ICD interface document,
// version 5): negotiation and the proc-address queries the loader asks.
#include <span>
#include <vector>

#include "vk/entry.h"
#include "vk/wsi.h"
#include "wire/vk_commands.h"

#define CONDUIT_EXPORT extern "C" __attribute__((visibility("default")))

namespace icd::vk {

using namespace wire::vk;

namespace {

// The highest loader interface this ICD speaks: 5 lets programs ask for
// Vulkan 1.1 and later through vkEnumerateInstanceVersion.
constexpr uint32_t kInterfaceVersion = 5;

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance, const char* name) { return icd_lookup(name); }
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice, const char* name) { return icd_lookup(name); }

// The host's extensions that Conduit carries, and the guest's own (window
// system integration): `ask` is the host's enumeration.
template <typename Ask>
VkResult extensions(Ask ask, std::span<const VkExtensionProperties> own, uint32_t* count,
                    VkExtensionProperties* props) {
  uint32_t n = 0;
  VkResult r = ask(&n, nullptr);
  if (r != VK_SUCCESS) return r;
  std::vector<VkExtensionProperties> list(n);
  if ((r = ask(&n, list.data())) < 0) return r;
  list.resize(n);
  list.insert(list.end(), own.begin(), own.end());
  return wire::vk::answer_enumeration<VkExtensionProperties>(list, count, props);
}

VKAPI_ATTR VkResult VKAPI_CALL enumerate_instance_extensions(const char* layer, uint32_t* count,
                                                            VkExtensionProperties* props) {
  if (layer) return VK_ERROR_LAYER_NOT_PRESENT;
  auto ask = [](uint32_t* n, VkExtensionProperties* p) {
    VkArgs_vkEnumerateInstanceExtensionProperties a{nullptr, n, p};
    return as_result(run_generated(VkOp::vkEnumerateInstanceExtensionProperties, a));
  };
  return extensions(ask, kGuestInstanceExtensions, count, props);
}

VKAPI_ATTR VkResult VKAPI_CALL enumerate_device_extensions(VkPhysicalDevice device, const char* layer,
                                                          uint32_t* count, VkExtensionProperties* props) {
  if (layer) return VK_ERROR_LAYER_NOT_PRESENT;
  auto ask = [device](uint32_t* n, VkExtensionProperties* p) {
    VkArgs_vkEnumerateDeviceExtensionProperties a{device, nullptr, n, p};
    return as_result(run_generated(VkOp::vkEnumerateDeviceExtensionProperties, a));
  };
  return extensions(ask, kGuestDeviceExtensions, count, props);
}

const NamedEntry kLoaderEntries[] = {
    {"vkGetInstanceProcAddr", proc(get_instance_proc_addr)},
    {"vkGetDeviceProcAddr", proc(get_device_proc_addr)},
    {"vkEnumerateInstanceExtensionProperties", proc(enumerate_instance_extensions)},
    {"vkEnumerateDeviceExtensionProperties", proc(enumerate_device_extensions)},
};

PFN_vkVoidFunction handwritten_entry(const char* name) {
  const std::span<const NamedEntry> tables[] = {
      kLoaderEntries, kWsiEntries, kSwapchainEntries, kGpuWritesEntries, kFencesEntries,
      kQueuesEntries, kDescriptorTemplatesEntries, kMemoryFdsEntries, kMemoryEntries,
  };
  for (std::span<const NamedEntry> table : tables)
    if (Proc f = find_entry(table, name)) return reinterpret_cast<PFN_vkVoidFunction>(f);
  return nullptr;
}

}  // namespace

PFN_vkVoidFunction icd_lookup(const char* name) {
  if (!name) return nullptr;
  if (auto f = handwritten_entry(name)) return f;
  return generated_entry(name);
}

}  // namespace icd::vk

CONDUIT_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* version) {
  if (*version > icd::vk::kInterfaceVersion) *version = icd::vk::kInterfaceVersion;
  return *version < 2 ? VK_ERROR_INCOMPATIBLE_DRIVER : VK_SUCCESS;
}

CONDUIT_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                                 const char* name) {
  return icd::vk::icd_lookup(name);
}

CONDUIT_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                        const char* name) {
  return icd::vk::icd_lookup(name);
}
