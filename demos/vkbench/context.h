// The Vulkan instance, the device and its one queue, and the memory and
// one-off submission helpers every scene shares.
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <initializer_list>

#include "handle.h"

namespace vkbench {

// A fence that has not signalled in this long means a hung or lost device.
constexpr uint64_t kFenceTimeoutNs = 30'000'000'000;

class Context {
 public:
  // `windowed` adds the surface and swapchain extensions.
  explicit Context(bool windowed);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }

  // The first memory type allowed by `type_bits` with all of `wanted`, or
  // UINT32_MAX when there is none.
  uint32_t find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags wanted) const;
  VkMemoryPropertyFlags memory_flags(uint32_t type) const;
  Memory allocate(const VkMemoryRequirements& requirements, uint32_t type) const;

  // The first of `candidates` whose optimal tiling has all of `features`.
  VkFormat pick_format(std::initializer_list<VkFormat> candidates,
                       VkFormatFeatureFlags features) const;

  // Records with `record`, submits and waits: set-up work outside the timed frames.
  void submit_once(const std::function<void(VkCommandBuffer)>& record) const;

 private:
  void create_instance(bool windowed);
  void pick_physical_device();
  void create_device(bool windowed);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  // Destroyed by ~Context before the device.
  CommandPool once_pool_;
};

}  // namespace vkbench
