// The Vulkan ICD through the real Vulkan loader, against a `conduit host`
// child: devices, and host-visible memory that behaves as the spec says
// (coherent memory written without a flush, copied on the GPU, read back
// through another mapping).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "vk_device.h"

namespace {

class VulkanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    host_ = new guesttest::HostProcess;
    guesttest::use_conduit_icd(*host_);
  }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }

  void SetUp() override {
    ASSERT_TRUE(host_->ok()) << host_->error();
    ASSERT_NE(instance_ = guesttest::make_instance(), VK_NULL_HANDLE);
    ASSERT_NE(gpu_ = guesttest::first_gpu(instance_), VK_NULL_HANDLE);
    ASSERT_NE(device_ = guesttest::make_device(gpu_), VK_NULL_HANDLE);
    vkGetDeviceQueue(device_, 0, 0, &queue_);
  }

  void TearDown() override {
    if (device_) vkDestroyDevice(device_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
  }

  // A host-visible, coherent buffer of `size` bytes and its memory.
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
  };
  Buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage) {
    Buffer b;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    EXPECT_EQ(vkCreateBuffer(device_, &info, nullptr, &b.buffer), VK_SUCCESS);
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device_, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties props{};
    vkGetPhysicalDeviceMemoryProperties(gpu_, &props);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < props.memoryTypeCount && type == UINT32_MAX; ++i)
      if ((req.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) type = i;
    EXPECT_NE(type, UINT32_MAX);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    EXPECT_EQ(vkAllocateMemory(device_, &alloc, nullptr, &b.memory), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(device_, b.buffer, b.memory, 0), VK_SUCCESS);
    return b;
  }
  void free_buffer(const Buffer& b) {
    vkDestroyBuffer(device_, b.buffer, nullptr);
    vkFreeMemory(device_, b.memory, nullptr);
  }

  // Copies `size` bytes from `src` to `dst` on the GPU and waits for it.
  void copy_and_wait(const Buffer& src, const Buffer& dst, VkDeviceSize size) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    ASSERT_EQ(vkCreateCommandPool(device_, &pool_info, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cb;
    ASSERT_EQ(vkAllocateCommandBuffers(device_, &alloc, &cb), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ASSERT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region);
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         nullptr, 0, nullptr);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    ASSERT_EQ(vkCreateFence(device_, &fence_info, nullptr, &fence), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    ASSERT_EQ(vkQueueSubmit(queue_, 1, &submit, fence), VK_SUCCESS);
    ASSERT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
    vkDestroyFence(device_, fence, nullptr);
    vkDestroyCommandPool(device_, pool, nullptr);
  }

  static guesttest::HostProcess* host_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice gpu_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
};

guesttest::HostProcess* VulkanTest::host_ = nullptr;

TEST_F(VulkanTest, TheHostsDeviceIsSeen) {
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
  vkGetPhysicalDeviceProperties2(gpu_, &props);
  EXPECT_GE(props.properties.apiVersion, VK_API_VERSION_1_1);
  EXPECT_GT(std::strlen(props.properties.deviceName), 0u);
  EXPECT_GT(std::strlen(v12.driverName), 0u);  // the chained structure came back filled
  EXPECT_EQ(v12.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  EXPECT_EQ(v12.pNext, nullptr);  // the program's own pointers are left alone
  // The same handle each time, as a driver gives.
  VkPhysicalDevice again = VK_NULL_HANDLE;
  uint32_t n = 1;
  ASSERT_GE(vkEnumeratePhysicalDevices(instance_, &n, &again), VK_SUCCESS);
  EXPECT_EQ(again, gpu_);
}

TEST_F(VulkanTest, ExtensionsTheHostDoesNotCarryAreRefused) {
  const char* name = "VK_EXT_no_such_extension";
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &name;
  VkInstance other = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateInstance(&info, nullptr, &other), VK_ERROR_EXTENSION_NOT_PRESENT);
}

TEST_F(VulkanTest, CoherentMemoryWrittenWithoutFlushReachesTheGpu) {
  constexpr VkDeviceSize kSize = 64 * 1024;
  Buffer src = make_buffer(kSize, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  Buffer dst = make_buffer(kSize, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  void* in = nullptr;
  void* out = nullptr;
  ASSERT_EQ(vkMapMemory(device_, src.memory, 0, VK_WHOLE_SIZE, 0, &in), VK_SUCCESS);
  ASSERT_EQ(vkMapMemory(device_, dst.memory, 0, VK_WHOLE_SIZE, 0, &out), VK_SUCCESS);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    // A new pattern each round, in part of the buffer only the second time:
    // what changed must travel, what did not must stay.
    auto* bytes = static_cast<uint8_t*>(in);
    const size_t from = round == 1 ? kSize / 2 : 0;
    for (size_t i = from; i < kSize; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + round * 13);
    copy_and_wait(src, dst, kSize);  // no flush: the memory is coherent
    EXPECT_EQ(std::memcmp(out, in, kSize), 0);
  }
  vkUnmapMemory(device_, src.memory);
  vkUnmapMemory(device_, dst.memory);
  // Mapped again, the memory shows what the GPU wrote.
  ASSERT_EQ(vkMapMemory(device_, dst.memory, 0, VK_WHOLE_SIZE, 0, &out), VK_SUCCESS);
  EXPECT_EQ(static_cast<uint8_t*>(out)[kSize - 1], static_cast<uint8_t>((kSize - 1) * 7 + 2 * 13));
  vkUnmapMemory(device_, dst.memory);
  free_buffer(src);
  free_buffer(dst);
}

TEST_F(VulkanTest, MemoryBeyondTheGuestsLimitIsRefused) {
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = VkDeviceSize{1} << 40;  // far past --max-guest-memory
  VkDeviceMemory memory = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateMemory(device_, &alloc, nullptr, &memory), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  // The device carries on.
  Buffer b = make_buffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  EXPECT_NE(b.memory, VK_NULL_HANDLE);
  free_buffer(b);
}

}  // namespace
