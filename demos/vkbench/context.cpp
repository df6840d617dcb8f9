#include "context.h"

#include <cstdio>
#include <vector>

#include "check.h"

namespace vkbench {
namespace {

// Real GPUs first: a machine with one and lavapipe benchmarks the GPU.
int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

// A family with graphics and compute; the spec guarantees one where graphics exists.
bool find_queue_family(VkPhysicalDevice device, uint32_t* family) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  const VkQueueFlags wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & wanted) == wanted && families[i].queueCount > 0) {
      *family = i;
      return true;
    }
  }
  return false;
}

}  // namespace

Context::Context(bool windowed) {
  create_instance(windowed);
  pick_physical_device();
  create_device(windowed);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  VkCommandPool pool;
  check(vkCreateCommandPool(device_, &pool_info, nullptr, &pool), "vkCreateCommandPool");
  once_pool_ = CommandPool(device_, pool);
}

Context::~Context() {
  if (device_) vkDeviceWaitIdle(device_);
  once_pool_.reset();
  if (device_) vkDestroyDevice(device_, nullptr);
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

void Context::create_instance(bool windowed) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "conduit-vkbench";
  app.applicationVersion = 1;
  app.pEngineName = "conduit-vkbench";
  app.apiVersion = VK_API_VERSION_1_1;
  const char* extensions[] = {"VK_KHR_surface", "VK_KHR_xcb_surface"};
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = windowed ? 2 : 0;
  info.ppEnabledExtensionNames = extensions;
  check(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
}

void Context::pick_physical_device() {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance_, &count, devices.data()),
        "vkEnumeratePhysicalDevices");
  int best_rank = 1 << 30;
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(device, &props);
    uint32_t family;
    if (props.apiVersion < VK_API_VERSION_1_1 || !find_queue_family(device, &family)) continue;
    if (type_rank(props.deviceType) < best_rank) {
      best_rank = type_rank(props.deviceType);
      physical_device_ = device;
      queue_family_ = family;
      properties_ = props;
    }
  }
  if (!physical_device_) fail("no Vulkan 1.1 device with a graphics and compute queue");
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_);
}

void Context::create_device(bool windowed) {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  const char* extensions[] = {"VK_KHR_swapchain"};
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = windowed ? 1 : 0;
  info.ppEnabledExtensionNames = extensions;
  check(vkCreateDevice(physical_device_, &info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
}

uint32_t Context::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags wanted) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & wanted) == wanted) {
      return i;
    }
  }
  return UINT32_MAX;
}

VkMemoryPropertyFlags Context::memory_flags(uint32_t type) const {
  return memory_.memoryTypes[type].propertyFlags;
}

Memory Context::allocate(const VkMemoryRequirements& requirements, uint32_t type) const {
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = requirements.size;
  info.memoryTypeIndex = type;
  VkDeviceMemory memory;
  check(vkAllocateMemory(device_, &info, nullptr, &memory), "vkAllocateMemory");
  return Memory(device_, memory);
}

VkFormat Context::pick_format(std::initializer_list<VkFormat> candidates,
                              VkFormatFeatureFlags features) const {
  for (VkFormat format : candidates) {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(physical_device_, format, &props);
    if ((props.optimalTilingFeatures & features) == features) return format;
  }
  fail("no format with optimal-tiling features 0x%x", features);
}

void Context::submit_once(const std::function<void(VkCommandBuffer)>& record) const {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = once_pool_.get();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(device_, &alloc, &cmd), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  record(cmd);
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence raw_fence;
  check(vkCreateFence(device_, &fence_info, nullptr, &raw_fence), "vkCreateFence");
  Fence fence(device_, raw_fence);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  check(vkQueueSubmit(queue_, 1, &submit, fence.get()), "vkQueueSubmit");
  check(vkWaitForFences(device_, 1, &raw_fence, VK_TRUE, kFenceTimeoutNs), "vkWaitForFences");
  vkFreeCommandBuffers(device_, once_pool_.get(), 1, &cmd);
}

}  // namespace vkbench
