// Objects that end with their parent without a command naming them (a
// pool's command buffers, a device's buffers): the host refuses their ids
// afterwards instead of handing the driver a freed object. The program's
// Vulkan is lost; its renderer lives on. Each case runs in a process of its
// own: the loss is its connection's.
#include <array>
#include <utility>

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

// A free naming one object twice (found by the Vulkan session fuzzer:
// lavapipe unlinked such a descriptor set twice and crashed): refused, while
// a free of distinct objects, nulls among them, runs. (Command buffers are
// checked the same way; a guest's ICD would free the handle twice itself.)

// Two sets of the add-one layout from a pool whose sets may be freed.
std::pair<VkDescriptorPool, std::array<VkDescriptorSet, 2>> two_sets(VkDevice device) {
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool_info.maxSets = 2;
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  vkCreateDescriptorPool(device, &pool_info, nullptr, &pool);
  const VkDescriptorSetLayout layout = guesttest::add_one_set_layout(device);
  const VkDescriptorSetLayout layouts[] = {layout, layout};
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool;
  alloc.descriptorSetCount = 2;
  alloc.pSetLayouts = layouts;
  std::array<VkDescriptorSet, 2> sets{};
  vkAllocateDescriptorSets(device, &alloc, sets.data());
  return {pool, sets};
}

TEST(VulkanGoneObjects, FreeOfDistinctSetsRuns) {
  guesttest::expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    auto [pool, sets] = two_sets(device);
    const VkDescriptorSet named[] = {sets[0], VK_NULL_HANDLE, sets[1], VK_NULL_HANDLE};
    vkFreeDescriptorSets(device, pool, 4, named);
  });
}

TEST(VulkanGoneObjects, FreeNamingOneSetTwice) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    auto [pool, sets] = two_sets(device);
    const VkDescriptorSet named[] = {sets[0], sets[0]};
    vkFreeDescriptorSets(device, pool, 2, named);
  });
}

// lavapipe walks the array whatever it is: it read through null.
TEST(VulkanGoneObjects, FreeOfAMissingArrayOfSets) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    auto [pool, sets] = two_sets(device);
    vkFreeDescriptorSets(device, pool, 2, nullptr);
  });
}

// A pipeline cache merged into itself (VUID-vkMergePipelineCaches-dstCache-00770).
VkPipelineCache empty_cache(VkDevice device) {
  return guesttest::created(device, VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                            vkCreatePipelineCache);
}

TEST(VulkanGoneObjects, MergeOfOtherCachesRuns) {
  guesttest::expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineCache sources[] = {empty_cache(device), empty_cache(device)};
    vkMergePipelineCaches(device, empty_cache(device), 2, sources);
  });
}

TEST(VulkanGoneObjects, MergeOfACacheIntoItself) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkPipelineCache cache = empty_cache(device);
    vkMergePipelineCaches(device, cache, 1, &cache);
  });
}

}  // namespace
