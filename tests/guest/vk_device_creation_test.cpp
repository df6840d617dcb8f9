// A device's queue requests are checked before the driver makes it: at
// least one, each of a family the physical device has, named once, for
// one to as many queues as the family has, protected ones only with
// protected memory (lavapipe crashed making a device without a queue); a
// queue is taken as it was made.
#include <cstdlib>
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

// Protected queues only where the device has protected memory, and a
// queue taken with the flags it was made with: lavapipe, which has no
// protected memory, answers a queue asked otherwise with no queue at all,
// which the host then submitted to at the device's end, and the loader
// aborted (found by the Vulkan session fuzzer). Refused at the device's
// creation where the device has no protected memory, at the queue's
// taking where it has.
TEST(VulkanDeviceCreation, ProtectedQueueTakenAsAnOrdinaryOne) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    const std::vector<float> priorities(1, 1.0f);
    VkDeviceQueueCreateInfo q = request(0, 1, priorities);
    q.flags = VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &q;
    VkDevice second = VK_NULL_HANDLE;
    if (vkCreateDevice(gpu, &info, nullptr, &second) != VK_SUCCESS) return;
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(second, 0, 0, &queue);
  });
}

TEST(VulkanDeviceCreation, QueueTakenWithFlagsItWasNotMadeWith) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkDeviceQueueInfo2 info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2};
    info.flags = VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT;
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue2(device, &info, &queue);
  });
}

TEST(VulkanDeviceCreation, QueueTakenWithTheFlagsItWasMadeWithRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkDeviceQueueInfo2 info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2};
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue2(device, &info, &queue);
    if (!queue || vkQueueWaitIdle(queue) != VK_SUCCESS) std::exit(7);
  });
}

}  // namespace
