#include "target.h"

#include <algorithm>
#include <vector>

#include "check.h"
#include "handle.h"
#include "window.h"

namespace vkbench {
namespace {

std::string size_text(VkExtent2D extent) {
  return std::to_string(extent.width) + "x" + std::to_string(extent.height);
}

void submit_frame(const Context& context, const FrameSlot& slot, VkSemaphore wait,
                  VkSemaphore signal) {
  // The wait guards the swapchain image, which the first use writes by transfer.
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.waitSemaphoreCount = wait ? 1 : 0;
  info.pWaitSemaphores = wait ? &wait : nullptr;
  info.pWaitDstStageMask = &wait_stage;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &slot.cmd;
  info.signalSemaphoreCount = signal ? 1 : 0;
  info.pSignalSemaphores = signal ? &signal : nullptr;
  check(vkQueueSubmit(context.queue(), 1, &info, slot.done.get()), "vkQueueSubmit");
}

class OffscreenTarget : public Target {
 public:
  OffscreenTarget(const Context& context, VkExtent2D extent) : context_(context), extent_(extent) {}

  std::string description() const override { return size_text(extent_) + " off-screen"; }
  void acquire(const FrameSlot&) override {}
  void record_output(VkCommandBuffer, const Canvas&) override {}
  void submit(const FrameSlot& slot) override {
    submit_frame(context_, slot, VK_NULL_HANDLE, VK_NULL_HANDLE);
  }

 private:
  const Context& context_;
  VkExtent2D extent_;
};

class WindowTarget : public Target {
 public:
  WindowTarget(const Context& context, VkExtent2D extent, VkPresentModeKHR present_mode);
  ~WindowTarget() override;

  std::string description() const override { return size_text(extent_) + " windowed"; }
  void acquire(const FrameSlot& slot) override;
  void record_output(VkCommandBuffer cmd, const Canvas& canvas) override;
  void submit(const FrameSlot& slot) override;

 private:
  void check_present_mode() const;
  VkSurfaceFormatKHR pick_surface_format() const;
  VkExtent2D pick_extent(const VkSurfaceCapabilitiesKHR& caps) const;
  void create_swapchain();
  void refresh_images();

  const Context& context_;
  VkExtent2D extent_;
  VkPresentModeKHR present_mode_;
  Window window_;  // outlives the surface made on it
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  Swapchain swapchain_;
  VkExtent2D image_extent_{};
  std::vector<VkImage> images_;
  // One per image, not per slot: an image's semaphore is free again once the
  // image is acquired again.
  std::vector<Semaphore> rendered_;
  uint32_t image_index_ = 0;
  bool stale_ = false;  // acquire said suboptimal: recreate after presenting
};

WindowTarget::WindowTarget(const Context& context, VkExtent2D extent, VkPresentModeKHR present_mode)
    : context_(context),
      extent_(extent),
      present_mode_(present_mode),
      window_(extent.width, extent.height) {
  VkXcbSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
  info.connection = window_.connection();
  info.window = window_.id();
  check(vkCreateXcbSurfaceKHR(context.instance(), &info, nullptr, &surface_),
        "vkCreateXcbSurfaceKHR");
  VkBool32 supported = VK_FALSE;
  check(vkGetPhysicalDeviceSurfaceSupportKHR(context.physical_device(), context.queue_family(),
                                             surface_, &supported),
        "vkGetPhysicalDeviceSurfaceSupportKHR");
  if (!supported) fail("the graphics queue cannot present to the window");
  check_present_mode();
  create_swapchain();
}

WindowTarget::~WindowTarget() {
  vkDeviceWaitIdle(context_.device());
  rendered_.clear();
  swapchain_.reset();
  vkDestroySurfaceKHR(context_.instance(), surface_, nullptr);
}

void WindowTarget::check_present_mode() const {
  uint32_t count = 0;
  check(vkGetPhysicalDeviceSurfacePresentModesKHR(context_.physical_device(), surface_, &count,
                                                  nullptr),
        "vkGetPhysicalDeviceSurfacePresentModesKHR");
  std::vector<VkPresentModeKHR> modes(count);
  check(vkGetPhysicalDeviceSurfacePresentModesKHR(context_.physical_device(), surface_, &count,
                                                  modes.data()),
        "vkGetPhysicalDeviceSurfacePresentModesKHR");
  if (std::find(modes.begin(), modes.end(), present_mode_) == modes.end()) {
    fail("the window does not offer present mode %d", present_mode_);
  }
}

VkSurfaceFormatKHR WindowTarget::pick_surface_format() const {
  uint32_t count = 0;
  VkPhysicalDevice gpu = context_.physical_device();
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(gpu, surface_, &count, nullptr),
        "vkGetPhysicalDeviceSurfaceFormatsKHR");
  std::vector<VkSurfaceFormatKHR> formats(count);
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(gpu, surface_, &count, formats.data()),
        "vkGetPhysicalDeviceSurfaceFormatsKHR");
  if (formats.empty()) fail("the window offers no surface format");
  // UNORM, as the canvas: the blit then copies values unchanged.
  for (const VkSurfaceFormatKHR& f : formats) {
    if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
        f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
      return f;
    }
  }
  return formats.front();
}

// The window's size, or where the surface leaves it to the swapchain, the
// bench's size within the surface's limits.
VkExtent2D WindowTarget::pick_extent(const VkSurfaceCapabilitiesKHR& caps) const {
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == UINT32_MAX) {
    extent.width = std::clamp(extent_.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent.height =
        std::clamp(extent_.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  if (extent.width == 0 || extent.height == 0) fail("the window has no area to present to");
  return extent;
}

void WindowTarget::create_swapchain() {
  VkPhysicalDevice gpu = context_.physical_device();
  VkSurfaceCapabilitiesKHR caps;
  check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(gpu, surface_, &caps),
        "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  // Frames are copied in from the canvas, never drawn into the images.
  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
    fail("swapchain images cannot be transfer destinations");
  }
  const VkSurfaceFormatKHR format = pick_surface_format();
  VkFormatProperties props;
  vkGetPhysicalDeviceFormatProperties(gpu, format.format, &props);
  if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT)) {
    fail("swapchain format %d cannot be a blit destination", format.format);
  }
  // One image more than the minimum, so acquiring need not wait for the display.
  uint32_t image_count = caps.minImageCount + 1;
  if (caps.maxImageCount) image_count = std::min(image_count, caps.maxImageCount);
  VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  if (!(caps.supportedCompositeAlpha & alpha)) {
    alpha = VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha &
                                        ~(caps.supportedCompositeAlpha - 1));
  }

  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = image_count;
  info.imageFormat = format.format;
  info.imageColorSpace = format.colorSpace;
  info.imageExtent = pick_extent(caps);
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = alpha;
  info.presentMode = present_mode_;
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_.get();
  VkSwapchainKHR swapchain;
  check(vkCreateSwapchainKHR(context_.device(), &info, nullptr, &swapchain),
        "vkCreateSwapchainKHR");
  swapchain_ = Swapchain(context_.device(), swapchain);  // destroys the old one
  image_extent_ = info.imageExtent;
  refresh_images();
}

void WindowTarget::refresh_images() {
  VkDevice device = context_.device();
  uint32_t count = 0;
  check(vkGetSwapchainImagesKHR(device, swapchain_.get(), &count, nullptr),
        "vkGetSwapchainImagesKHR");
  images_.resize(count);
  check(vkGetSwapchainImagesKHR(device, swapchain_.get(), &count, images_.data()),
        "vkGetSwapchainImagesKHR");
  rendered_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore semaphore;
    check(vkCreateSemaphore(device, &semaphore_info, nullptr, &semaphore), "vkCreateSemaphore");
    rendered_.emplace_back(device, semaphore);
  }
}

void WindowTarget::acquire(const FrameSlot& slot) {
  window_.poll_events();
  for (;;) {
    const VkResult result =
        vkAcquireNextImageKHR(context_.device(), swapchain_.get(), kFenceTimeoutNs,
                              slot.acquired.get(), VK_NULL_HANDLE, &image_index_);
    if (result == VK_ERROR_OUT_OF_DATE_KHR) {
      check(vkDeviceWaitIdle(context_.device()), "vkDeviceWaitIdle");
      create_swapchain();
      continue;
    }
    // Suboptimal still signals the semaphore: show this frame, then recreate.
    stale_ = result == VK_SUBOPTIMAL_KHR;
    if (!stale_) check(result, "vkAcquireNextImageKHR");
    return;
  }
}

void WindowTarget::record_output(VkCommandBuffer cmd, const Canvas& canvas) {
  VkImage image = images_[image_index_];
  image_barrier(cmd, image, {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_TRANSFER_BIT, 0},
                {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_WRITE_BIT});
  const VkExtent2D from = canvas.extent();
  VkImageBlit blit{};
  blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = {int32_t(from.width), int32_t(from.height), 1};
  blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.dstOffsets[1] = {int32_t(image_extent_.width), int32_t(image_extent_.height), 1};
  const bool same_size = from.width == image_extent_.width && from.height == image_extent_.height;
  vkCmdBlitImage(cmd, canvas.colour_image(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                 same_size ? VK_FILTER_NEAREST : VK_FILTER_LINEAR);
  // The present waits on the submission's semaphore: no later stage to name.
  image_barrier(cmd, image,
                {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_WRITE_BIT},
                {VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0});
}

void WindowTarget::submit(const FrameSlot& slot) {
  VkSemaphore rendered = rendered_[image_index_].get();
  submit_frame(context_, slot, slot.acquired.get(), rendered);
  VkSwapchainKHR swapchain = swapchain_.get();
  VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &rendered;
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain;
  info.pImageIndices = &image_index_;
  const VkResult result = vkQueuePresentKHR(context_.queue(), &info);
  if (result == VK_ERROR_OUT_OF_DATE_KHR || result == VK_SUBOPTIMAL_KHR || stale_) {
    check(vkDeviceWaitIdle(context_.device()), "vkDeviceWaitIdle");
    create_swapchain();
    stale_ = false;
    return;
  }
  check(result, "vkQueuePresentKHR");
}

}  // namespace

std::unique_ptr<Target> make_offscreen_target(const Context& context, VkExtent2D extent) {
  return std::make_unique<OffscreenTarget>(context, extent);
}

std::unique_ptr<Target> make_window_target(const Context& context, VkExtent2D extent,
                                           VkPresentModeKHR present_mode) {
  return std::make_unique<WindowTarget>(context, extent, present_mode);
}

}  // namespace vkbench
