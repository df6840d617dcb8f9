// Objects that end with their parent without a command naming them (a
// pool's command buffers, a device's buffers): the host refuses their ids
// afterwards instead of handing the driver a freed object. The program's
// Vulkan is lost; its renderer lives on. Each case runs in a process of its
// own: the loss is its connection's.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "vk_device.h"

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

// In a child process, against a host of this test: `misuse` names a gone
// object on `device`; the next command that waits must find the program's
// Vulkan lost, and the host's renderer alive. Exits 0 when all of that held.
void expect_refused(const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse) {
  guesttest::HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  auto child = [&] {
    guesttest::use_conduit_icd(host);
    VkInstance instance = guesttest::make_instance();
    VkPhysicalDevice gpu = guesttest::first_gpu(instance);
    VkDevice device = guesttest::make_device(gpu);
    misuse(instance, gpu, device);
    if (vkDeviceWaitIdle(device) != VK_ERROR_DEVICE_LOST) std::exit(3);
    // Ours is the one session left once the host's start-up probe has gone.
    for (int i = 0; i < 100; ++i) {
      const std::string stats = host_stats(host.address());
      if (stats.find("\"crashed\": 0") == std::string::npos) std::exit(4);
      if (stats.find("\"sessions_live\": 1") != std::string::npos) std::exit(0);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::exit(5);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "");
}

TEST(VulkanGoneObjects, CommandBufferOfADestroyedPool) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    vkCreateCommandPool(device, &pool_info, nullptr, &pool);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cb;
    vkAllocateCommandBuffers(device, &alloc, &cb);
    vkDestroyCommandPool(device, pool, nullptr);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cb, &begin);  // answered without waiting
  });
}

TEST(VulkanGoneObjects, BufferOfADestroyedDevice) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkDevice first = guesttest::make_device(gpu);
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = 4096;
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    VkBuffer buffer;
    vkCreateBuffer(first, &info, nullptr, &buffer);
    vkDestroyDevice(first, nullptr);  // the buffer left behind goes with it
    vkDestroyBuffer(device, buffer, nullptr);
  });
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Each case's child is forked from a process that never used Vulkan: no
  // connection or loader state is inherited.
  GTEST_FLAG_SET(death_test_style, "fast");
  return RUN_ALL_TESTS();
}
