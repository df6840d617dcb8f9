// The Vulkan loader's ICD interface (the loader-ICD interface document,
// version 5): negotiation and the proc-address queries the loader asks.
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

// Every hand-written entry point.
const NamedEntry kHandwritten[] = {
    {"vkGetInstanceProcAddr", proc(get_instance_proc_addr)},
    {"vkGetDeviceProcAddr", proc(get_device_proc_addr)},
    {"vkEnumerateInstanceExtensionProperties", proc(enumerate_instance_extensions)},
    {"vkEnumerateDeviceExtensionProperties", proc(enumerate_device_extensions)},
    {"vkCreateXcbSurfaceKHR", proc(create_xcb_surface)},
    {"vkCreateXlibSurfaceKHR", proc(create_xlib_surface)},
    {"vkCreateHeadlessSurfaceEXT", proc(create_headless_surface)},
    {"vkDestroySurfaceKHR", proc(destroy_surface)},
    {"vkGetPhysicalDeviceSurfaceSupportKHR", proc(surface_support)},
    {"vkGetPhysicalDeviceXcbPresentationSupportKHR", proc(xcb_presentation_support)},
    {"vkGetPhysicalDeviceXlibPresentationSupportKHR", proc(xlib_presentation_support)},
    {"vkGetPhysicalDeviceSurfaceCapabilitiesKHR", proc(surface_capabilities)},
    {"vkGetPhysicalDeviceSurfaceFormatsKHR", proc(surface_formats)},
    {"vkGetPhysicalDeviceSurfaceCapabilities2KHR", proc(surface_capabilities2)},
    {"vkGetPhysicalDeviceSurfaceFormats2KHR", proc(surface_formats2)},
    {"vkGetPhysicalDeviceSurfacePresentModesKHR", proc(surface_present_modes)},
    {"vkGetPhysicalDevicePresentRectanglesKHR", proc(present_rectangles)},
    {"vkGetDeviceGroupPresentCapabilitiesKHR", proc(group_present_capabilities)},
    {"vkGetDeviceGroupSurfacePresentModesKHR", proc(group_surface_present_modes)},
    {"vkCreateSwapchainKHR", proc(create_swapchain)},
    {"vkDestroySwapchainKHR", proc(destroy_swapchain)},
    {"vkGetSwapchainImagesKHR", proc(swapchain_images)},
    {"vkAcquireNextImageKHR", proc(acquire_next_image)},
    {"vkAcquireNextImage2KHR", proc(acquire_next_image2)},
    {"vkQueuePresentKHR", proc(queue_present)},
    {"vkCreateBuffer", proc(create_buffer)},
    {"vkDestroyBuffer", proc(destroy_buffer)},
    {"vkBindBufferMemory", proc(bind_buffer_memory)},
    {"vkBindBufferMemory2", proc(bind_buffer_memory2)},
    {"vkBindBufferMemory2KHR", proc(bind_buffer_memory2)},
    {"vkBindImageMemory", proc(bind_image_memory)},
    {"vkBindImageMemory2", proc(bind_image_memory2)},
    {"vkBindImageMemory2KHR", proc(bind_image_memory2)},
    {"vkQueueBindSparse", proc(queue_bind_sparse)},
    {"vkCreateFence", proc(create_fence)},
    {"vkDestroyFence", proc(destroy_fence)},
    {"vkResetFences", proc(reset_fences)},
    {"vkGetDeviceQueue", proc(get_device_queue)},
    {"vkGetDeviceQueue2", proc(get_device_queue2)},
    {"vkCreateDescriptorUpdateTemplate", proc(create_template)},
    {"vkCreateDescriptorUpdateTemplateKHR", proc(create_template)},
    {"vkDestroyDescriptorUpdateTemplate", proc(destroy_template)},
    {"vkDestroyDescriptorUpdateTemplateKHR", proc(destroy_template)},
    {"vkUpdateDescriptorSetWithTemplate", proc(update_with_template)},
    {"vkUpdateDescriptorSetWithTemplateKHR", proc(update_with_template)},
    {"vkCmdPushDescriptorSetWithTemplateKHR", proc(push_with_template)},
    {"vkGetMemoryFdKHR", proc(get_memory_fd)},
    {"vkGetMemoryFdPropertiesKHR", proc(get_memory_fd_properties)},
    {"vkCreateDevice", proc(create_device)},
    {"vkCreateImage", proc(create_image)},
    {"vkAllocateMemory", proc(allocate_memory)},
    {"vkFreeMemory", proc(free_memory)},
    {"vkMapMemory", proc(map_memory)},
    {"vkUnmapMemory", proc(unmap_memory)},
    {"vkFlushMappedMemoryRanges", proc(flush_ranges)},
    {"vkInvalidateMappedMemoryRanges", proc(invalidate_ranges)},
    {"vkQueueSubmit", proc(queue_submit)},
    {"vkQueueSubmit2", proc(queue_submit2)},
    {"vkQueueSubmit2KHR", proc(queue_submit2)},
    {"vkWaitForFences", proc(wait_for_fences)},
    {"vkGetFenceStatus", proc(get_fence_status)},
    {"vkQueueWaitIdle", proc(queue_wait_idle)},
    {"vkDeviceWaitIdle", proc(device_wait_idle)},
    {"vkWaitSemaphores", proc(wait_semaphores)},
    {"vkGetQueryPoolResults", proc(get_query_pool_results)},
    {"vkWaitSemaphoresKHR", proc(wait_semaphores)},
};

}  // namespace

PFN_vkVoidFunction icd_lookup(const char* name) {
  if (!name) return nullptr;
  if (Proc f = find_entry(kHandwritten, name)) return reinterpret_cast<PFN_vkVoidFunction>(f);
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
