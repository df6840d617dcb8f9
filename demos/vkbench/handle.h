// Move-only owners of device-level Vulkan objects: each destroys its object
// with the device that made it, so a scene's objects go when the scene does.
#pragma once

#include <vulkan/vulkan.h>

#include <utility>

namespace vkbench {

template <typename T, void (*Destroy)(VkDevice, T, const VkAllocationCallbacks*)>
class Owned {
 public:
  Owned() = default;
  Owned(VkDevice device, T handle) : device_(device), handle_(handle) {}
  Owned(Owned&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() { reset(); }

  T get() const { return handle_; }
  void reset() {
    if (handle_ != VK_NULL_HANDLE) Destroy(device_, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  T handle_ = VK_NULL_HANDLE;
};

using Buffer = Owned<VkBuffer, vkDestroyBuffer>;
using Image = Owned<VkImage, vkDestroyImage>;
using ImageView = Owned<VkImageView, vkDestroyImageView>;
using Memory = Owned<VkDeviceMemory, vkFreeMemory>;
using Sampler = Owned<VkSampler, vkDestroySampler>;
using ShaderModule = Owned<VkShaderModule, vkDestroyShaderModule>;
using RenderPass = Owned<VkRenderPass, vkDestroyRenderPass>;
using Framebuffer = Owned<VkFramebuffer, vkDestroyFramebuffer>;
using PipelineLayout = Owned<VkPipelineLayout, vkDestroyPipelineLayout>;
using Pipeline = Owned<VkPipeline, vkDestroyPipeline>;
using DescriptorSetLayout = Owned<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using DescriptorPool = Owned<VkDescriptorPool, vkDestroyDescriptorPool>;
using CommandPool = Owned<VkCommandPool, vkDestroyCommandPool>;
using Fence = Owned<VkFence, vkDestroyFence>;
using Semaphore = Owned<VkSemaphore, vkDestroySemaphore>;
using Swapchain = Owned<VkSwapchainKHR, vkDestroySwapchainKHR>;

}  // namespace vkbench
