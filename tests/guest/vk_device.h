// What the guest Vulkan tests share: the loader pointed at Conduit's ICD
// and a host child, and an instance with one device and its first queue.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include <vulkan/vulkan.h>

#include "host_process.h"

namespace guesttest {

// What `create` (vkCreateEvent, vkAllocateMemory, ...) makes of `info`; a
// null handle where it fails, which the misuse tests go on to use.
template <typename Info, typename Handle>
Handle created(VkDevice device, const Info& info,
               VkResult (*create)(VkDevice, const Info*, const VkAllocationCallbacks*, Handle*)) {
  Handle made = VK_NULL_HANDLE;
  create(device, &info, nullptr, &made);
  return made;
}

// Writes one descriptor of `type` into binding 0 of `set` at `element`,
// from `buffer` or `image` as the type wants.
inline void write_descriptor(VkDevice device, VkDescriptorSet set, VkDescriptorType type,
                             const VkDescriptorBufferInfo* buffer,
                             const VkDescriptorImageInfo* image = nullptr, uint32_t element = 0) {
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstArrayElement = element;
  write.descriptorCount = 1;
  write.descriptorType = type;
  write.pBufferInfo = buffer;
  write.pImageInfo = image;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

// The same of a create info of defaults, of structure `type`.
template <typename Info, typename Handle>
Handle created(VkDevice device, VkStructureType type,
               VkResult (*create)(VkDevice, const Info*, const VkAllocationCallbacks*, Handle*)) {
  return created(device, Info{type}, create);
}

// Before the loader's first use: Conduit's ICD alone, against `host`.
inline void use_conduit_icd(const HostProcess& host) {
  setenv("VK_DRIVER_FILES", std::getenv("CONDUIT_VK_ICD"), 1);
  setenv("CONDUIT_HOST", host.address().c_str(), 1);
}

inline VkInstance make_instance(uint32_t version = VK_API_VERSION_1_3) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = version;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateInstance(&info, nullptr, &instance), VK_SUCCESS);
  return instance;
}

inline VkPhysicalDevice first_gpu(VkInstance instance) {
  uint32_t n = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  EXPECT_GE(vkEnumeratePhysicalDevices(instance, &n, &gpu), VK_SUCCESS);
  EXPECT_EQ(n, 1u);
  return gpu;
}

// Creates in `made` a device with one queue of family 0, the extensions
// named, and `features` (or nothing) chained to its create info.
inline VkResult create_device(VkPhysicalDevice gpu, const std::vector<const char*>& extensions,
                              const void* features, VkDevice* made) {
  float priority = 1;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, features};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  return vkCreateDevice(gpu, &info, nullptr, made);
}

// A device with one queue of family 0 and the extensions named.
inline VkDevice make_device(VkPhysicalDevice gpu, const std::vector<const char*>& extensions = {}) {
  VkDevice device = VK_NULL_HANDLE;
  EXPECT_EQ(create_device(gpu, extensions, nullptr, &device), VK_SUCCESS);
  return device;
}

// The descriptor set layout of tests/guest/shaders/add_one.comp: its
// uniform buffer at binding 0, its storage buffer at 1.
inline VkDescriptorSetLayout add_one_set_layout(VkDevice device) {
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = 2;
  info.pBindings = bindings;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout), VK_SUCCESS);
  return layout;
}

}  // namespace guesttest
