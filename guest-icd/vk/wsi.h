// Window-system integration in the guest: a surface is the guest's own
// (its window, or none for a headless surface); the host never sees one.
// Swapchains are images the host renders, read back and shown in the
// surface's window (swapchain.cpp).
#pragma once

#include <memory>

#include <vulkan/vulkan.h>

#include "vk/window_frames.h"
#include "x11/presenter.h"

namespace icd::vk {

struct GuestSurface {
  std::unique_ptr<Presenter> presenter;  // null: headless
  std::unique_ptr<WindowFrames> frames;  // from the first swapchain of a window; goes first

  // The window's size, or false when it has none (headless) or is gone.
  bool window_extent(VkExtent2D* extent);
};

inline GuestSurface* surface_of(VkSurfaceKHR s) { return reinterpret_cast<GuestSurface*>(s); }

// The extensions the guest adds to the host's: surfaces and swapchains are its own.
extern const VkExtensionProperties kGuestInstanceExtensions[6];
extern const VkExtensionProperties kGuestDeviceExtensions[2];

}  // namespace icd::vk
