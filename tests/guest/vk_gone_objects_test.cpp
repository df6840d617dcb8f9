// Objects that end with their parent without a command naming them (a
// pool's command buffers, a device's buffers): the host refuses their ids
// afterwards instead of handing the driver a freed object. The program's
// Vulkan is lost; its renderer lives on. Each case runs in a process of its
// own: the loss is its connection's.
#include "vk_refused.h"

namespace {

using guesttest::expect_refused;

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
