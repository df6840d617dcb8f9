// A device's queue requests are checked before the driver makes it: at
// least one, each of a family the physical device has, named once, for
// one to as many queues as the family has (lavapipe crashed making a
// device without a queue).
#include <vector>

#include "vk_refused.h"

namespace {

using namespace guesttest;

// A second device of `gpu` from these requests; its result is the host's
// to judge, the first device's state says whether the program was lost.
void make_device_from(VkPhysicalDevice gpu, const std::vector<VkDeviceQueueCreateInfo>& requests) {
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = static_cast<uint32_t>(requests.size());
  info.pQueueCreateInfos = requests.empty() ? nullptr : requests.data();
  VkDevice second = VK_NULL_HANDLE;
  if (vkCreateDevice(gpu, &info, nullptr, &second) == VK_SUCCESS) vkDestroyDevice(second, nullptr);
}

// What the first queue family offers.
uint32_t queues_of_family_0(VkPhysicalDevice gpu) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, families.data());
  return count ? families[0].queueCount : 0;
}

VkDeviceQueueCreateInfo request(uint32_t family, uint32_t count, const std::vector<float>& priorities) {
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = family;
  q.queueCount = count;
  q.pQueuePriorities = priorities.data();
  return q;
}

TEST(VulkanDeviceCreation, ADeviceWithQueuesOfItsFamilyRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    const std::vector<float> priorities(1, 1.0f);
    make_device_from(gpu, {request(0, 1, priorities)});
  });
}

TEST(VulkanDeviceCreation, ADeviceWithoutAQueue) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice) { make_device_from(gpu, {}); });
}

TEST(VulkanDeviceCreation, ADeviceOfAQueueFamilyTheGpuLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    const std::vector<float> priorities(1, 1.0f);
    make_device_from(gpu, {request(1000, 1, priorities)});
  });
}

TEST(VulkanDeviceCreation, ADeviceNamingAFamilyTwice) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    const std::vector<float> priorities(1, 1.0f);
    make_device_from(gpu, {request(0, 1, priorities), request(0, 1, priorities)});
  });
}

TEST(VulkanDeviceCreation, ADeviceOfMoreQueuesThanItsFamilyHas) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    const uint32_t more = queues_of_family_0(gpu) + 1;
    const std::vector<float> priorities(more, 1.0f);
    make_device_from(gpu, {request(0, more, priorities)});
  });
}

}  // namespace
