// Surfaces of guest windows (xcb, Xlib) and headless ones, and what a
// program asks about them: the window's size, the formats and present modes
// the guest's presenter shows.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <span>

// The wire's headers first: Xlib defines Status as a macro.
#include "vk/entry.h"
#include "vk/wsi.h"

#include <X11/Xlib.h>
#include <xcb/xcb.h>
#include <vulkan/vulkan_xcb.h>
#include <vulkan/vulkan_xlib.h>

namespace icd::vk {

const VkExtensionProperties kGuestInstanceExtensions[6] = {
    {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_SURFACE_SPEC_VERSION},
    {VK_KHR_XCB_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_SPEC_VERSION},
    {VK_KHR_XLIB_SURFACE_EXTENSION_NAME, VK_KHR_XLIB_SURFACE_SPEC_VERSION},
    {VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_SPEC_VERSION},
    {VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME, VK_KHR_GET_SURFACE_CAPABILITIES_2_SPEC_VERSION},
    {VK_KHR_SURFACE_PROTECTED_CAPABILITIES_EXTENSION_NAME, VK_KHR_SURFACE_PROTECTED_CAPABILITIES_SPEC_VERSION},
};
const VkExtensionProperties kGuestDeviceExtensions[2] = {
    {VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_SWAPCHAIN_SPEC_VERSION},
    // A present's regions are hints: the presenter shows whole frames.
    {VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME, VK_KHR_INCREMENTAL_PRESENT_SPEC_VERSION},
};

bool GuestSurface::window_extent(VkExtent2D* extent) {
  int w = 0, h = 0;
  if (!presenter || !presenter->window_size(&w, &h)) return false;
  *extent = {static_cast<uint32_t>(w), static_cast<uint32_t>(h)};
  return true;
}

namespace {

using wire::vk::answer_enumeration;

VkSurfaceKHR handle_of(GuestSurface* s) { return reinterpret_cast<VkSurfaceKHR>(s); }

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL create_xcb_surface(VkInstance, const VkXcbSurfaceCreateInfoKHR* info,
                                                 const VkAllocationCallbacks*, VkSurfaceKHR* surface) {
  // Our own connection must find the window the program just made.
  xcb_flush(info->connection);
  const char* display = std::getenv("DISPLAY");
  auto s = std::make_unique<GuestSurface>();
  s->presenter = std::make_unique<Presenter>(display ? display : "", info->window);
  if (!s->presenter->ok()) return VK_ERROR_SURFACE_LOST_KHR;
  *surface = handle_of(s.release());
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL create_xlib_surface(VkInstance, const VkXlibSurfaceCreateInfoKHR* info,
                                                  const VkAllocationCallbacks*, VkSurfaceKHR* surface) {
  auto s = std::make_unique<GuestSurface>();
  s->presenter = Presenter::open(info->dpy, info->window);
  if (!s->presenter || !s->presenter->ok()) return VK_ERROR_SURFACE_LOST_KHR;
  *surface = handle_of(s.release());
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL create_headless_surface(VkInstance, const VkHeadlessSurfaceCreateInfoEXT*,
                                                      const VkAllocationCallbacks*, VkSurfaceKHR* surface) {
  *surface = handle_of(new GuestSurface);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL destroy_surface(VkInstance, VkSurfaceKHR surface, const VkAllocationCallbacks*) {
  delete surface_of(surface);
}

// Every queue family may present: the guest shows the images itself.
VKAPI_ATTR VkResult VKAPI_CALL surface_support(VkPhysicalDevice, uint32_t, VkSurfaceKHR, VkBool32* supported) {
  *supported = VK_TRUE;
  return VK_SUCCESS;
}

VKAPI_ATTR VkBool32 VKAPI_CALL xcb_presentation_support(VkPhysicalDevice, uint32_t, xcb_connection_t*,
                                                       xcb_visualid_t) {
  return VK_TRUE;
}

VKAPI_ATTR VkBool32 VKAPI_CALL xlib_presentation_support(VkPhysicalDevice, uint32_t, Display*, VisualID) {
  return VK_TRUE;
}

VKAPI_ATTR VkResult VKAPI_CALL surface_capabilities(VkPhysicalDevice, VkSurfaceKHR surface,
                                                   VkSurfaceCapabilitiesKHR* caps) {
  *caps = {};
  VkExtent2D extent{};
  if (surface_of(surface)->window_extent(&extent)) {
    caps->currentExtent = caps->minImageExtent = caps->maxImageExtent = extent;
  } else if (surface_of(surface)->presenter) {
    return VK_ERROR_SURFACE_LOST_KHR;
  } else {
    caps->currentExtent = {0xFFFFFFFFu, 0xFFFFFFFFu};  // headless: the program chooses
    caps->minImageExtent = {1, 1};
    caps->maxImageExtent = {16384, 16384};
  }
  caps->minImageCount = 2;
  caps->maxImageCount = 8;
  caps->maxImageArrayLayers = 1;
  caps->supportedTransforms = caps->currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  caps->supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  caps->supportedUsageFlags = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                              VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                              VK_IMAGE_USAGE_STORAGE_BIT;
  return VK_SUCCESS;
}

namespace {

// The presenter shows BGRA bytes.
constexpr VkSurfaceFormatKHR kShownFormats[] = {
    {VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
};

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL surface_formats(VkPhysicalDevice, VkSurfaceKHR, uint32_t* count,
                                              VkSurfaceFormatKHR* formats) {
  return answer_enumeration<VkSurfaceFormatKHR>(kShownFormats, count, formats);
}

// VK_KHR_get_surface_capabilities2: the same answers in extensible
// structures; the presenter shows no protected content.
VKAPI_ATTR VkResult VKAPI_CALL surface_capabilities2(VkPhysicalDevice gpu, const VkPhysicalDeviceSurfaceInfo2KHR* info,
                                                    VkSurfaceCapabilities2KHR* caps) {
  for (auto* s = static_cast<VkBaseOutStructure*>(caps->pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR)
      reinterpret_cast<VkSurfaceProtectedCapabilitiesKHR*>(s)->supportsProtected = VK_FALSE;
  return surface_capabilities(gpu, info->surface, &caps->surfaceCapabilities);
}

// (Each element's sType and pNext are the program's: only surfaceFormat is written.)
VKAPI_ATTR VkResult VKAPI_CALL surface_formats2(VkPhysicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR*,
                                               uint32_t* count, VkSurfaceFormat2KHR* formats) {
  const uint32_t all = static_cast<uint32_t>(std::size(kShownFormats));
  if (!formats) {
    *count = all;
    return VK_SUCCESS;
  }
  const uint32_t n = std::min(*count, all);
  for (uint32_t i = 0; i < n; ++i) formats[i].surfaceFormat = kShownFormats[i];
  *count = n;
  return n < all ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL surface_present_modes(VkPhysicalDevice, VkSurfaceKHR, uint32_t* count,
                                                    VkPresentModeKHR* modes) {
  static const VkPresentModeKHR kModes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                                            VK_PRESENT_MODE_IMMEDIATE_KHR};
  return answer_enumeration<VkPresentModeKHR>(kModes, count, modes);
}

VKAPI_ATTR VkResult VKAPI_CALL present_rectangles(VkPhysicalDevice, VkSurfaceKHR surface, uint32_t* count,
                                                 VkRect2D* rects) {
  VkExtent2D extent{};
  if (!surface_of(surface)->window_extent(&extent)) extent = {0, 0};
  const VkRect2D whole{{0, 0}, extent};
  return answer_enumeration<VkRect2D>(std::span(&whole, 1), count, rects);
}

VKAPI_ATTR VkResult VKAPI_CALL group_present_capabilities(VkDevice, VkDeviceGroupPresentCapabilitiesKHR* caps) {
  std::memset(caps->presentMask, 0, sizeof caps->presentMask);
  caps->presentMask[0] = 1;
  caps->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL group_surface_present_modes(VkDevice, VkSurfaceKHR,
                                                          VkDeviceGroupPresentModeFlagsKHR* modes) {
  *modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

}  // namespace icd::vk
