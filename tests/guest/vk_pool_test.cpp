// A program that uses a command buffer whose pool it destroyed: the host
// refuses the stale id (its pool took the object with it) instead of
// handing the driver a freed object. The program's Vulkan is lost; its
// renderer lives on. A process of its own: the loss is the connection's.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <vulkan/vulkan.h>

#include "host_process.h"

namespace {

std::string host_stats(const std::string& address) {
  const std::string cmd = std::string(std::getenv("CONDUIT_EXE")) + " info --stats --host " + address;
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    pclose(p);
  }
  return out;
}

TEST(VulkanPool, CommandBufferOfADestroyedPoolIsRefused) {
  guesttest::HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  setenv("VK_DRIVER_FILES", std::getenv("CONDUIT_VK_ICD"), 1);
  setenv("CONDUIT_HOST", host.address().c_str(), 1);

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  VkInstance instance;
  ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance), VK_SUCCESS);
  uint32_t n = 1;
  VkPhysicalDevice gpu;
  ASSERT_GE(vkEnumeratePhysicalDevices(instance, &n, &gpu), VK_SUCCESS);
  float priority = 1;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo dev{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dev.queueCreateInfoCount = 1;
  dev.pQueueCreateInfos = &queue;
  VkDevice device;
  ASSERT_EQ(vkCreateDevice(gpu, &dev, nullptr, &device), VK_SUCCESS);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  ASSERT_EQ(vkCreateCommandPool(device, &pool_info, nullptr, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cb;
  ASSERT_EQ(vkAllocateCommandBuffers(device, &alloc, &cb), VK_SUCCESS);
  vkDestroyCommandPool(device, pool, nullptr);

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cb, &begin);  // answered without waiting
  EXPECT_EQ(vkDeviceWaitIdle(device), VK_ERROR_DEVICE_LOST);

  const std::string stats = host_stats(host.address());
  EXPECT_NE(stats.find("\"crashed\": 0"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"sessions_live\": 1"), std::string::npos) << stats;
}

}  // namespace
