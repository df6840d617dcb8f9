// Window-system integration in the guest: a surface is the guest's own
// (its window, or none for a headless surface); the host never sees one.
// Swapchains are images the host renders, read back and shown in the
// surface's window (swapchain.cpp).
#pragma once

#include <memory>

#include <vulkan/vulkan.h>

// The wire's headers first: Xlib defines Status as a macro.
#include "vk/entry.h"
#include "vk/window_frames.h"
#include "x11/presenter.h"

#include <xcb/xcb.h>
#include <vulkan/vulkan_xcb.h>
#include <vulkan/vulkan_xlib.h>

namespace icd::vk {

struct GuestSurface {
  std::unique_ptr<Presenter> presenter;  // null: headless
  std::unique_ptr<WindowFrames> frames;  // from the first swapchain of a window; goes first

  // The window's size, or false when it has none (headless) or is gone.
  bool window_extent(VkExtent2D* extent);
};

inline GuestSurface* surface_of(VkSurfaceKHR s) { return reinterpret_cast<GuestSurface*>(s); }

// Hand-written entry points (vk/entry.h).
// wsi.cpp
EntryPoint<PFN_vkCreateXcbSurfaceKHR> create_xcb_surface;
EntryPoint<PFN_vkCreateXlibSurfaceKHR> create_xlib_surface;
EntryPoint<PFN_vkCreateHeadlessSurfaceEXT> create_headless_surface;
EntryPoint<PFN_vkDestroySurfaceKHR> destroy_surface;
EntryPoint<PFN_vkGetPhysicalDeviceSurfaceSupportKHR> surface_support;
EntryPoint<PFN_vkGetPhysicalDeviceXcbPresentationSupportKHR> xcb_presentation_support;
EntryPoint<PFN_vkGetPhysicalDeviceXlibPresentationSupportKHR> xlib_presentation_support;
EntryPoint<PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR> surface_capabilities;
EntryPoint<PFN_vkGetPhysicalDeviceSurfaceFormatsKHR> surface_formats;
EntryPoint<PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR> surface_capabilities2;
EntryPoint<PFN_vkGetPhysicalDeviceSurfaceFormats2KHR> surface_formats2;
EntryPoint<PFN_vkGetPhysicalDeviceSurfacePresentModesKHR> surface_present_modes;
EntryPoint<PFN_vkGetPhysicalDevicePresentRectanglesKHR> present_rectangles;
EntryPoint<PFN_vkGetDeviceGroupPresentCapabilitiesKHR> group_present_capabilities;
EntryPoint<PFN_vkGetDeviceGroupSurfacePresentModesKHR> group_surface_present_modes;
// swapchain.cpp
EntryPoint<PFN_vkCreateSwapchainKHR> create_swapchain;
EntryPoint<PFN_vkDestroySwapchainKHR> destroy_swapchain;
EntryPoint<PFN_vkGetSwapchainImagesKHR> swapchain_images;
EntryPoint<PFN_vkAcquireNextImageKHR> acquire_next_image;
EntryPoint<PFN_vkAcquireNextImage2KHR> acquire_next_image2;
EntryPoint<PFN_vkQueuePresentKHR> queue_present;

// The extensions the guest adds to the host's: surfaces and swapchains are its own.
extern const VkExtensionProperties kGuestInstanceExtensions[6];
extern const VkExtensionProperties kGuestDeviceExtensions[2];

}  // namespace icd::vk
