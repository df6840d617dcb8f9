// Attacks against one host while another guest renders: every attacker
// loses only its own Vulkan, the witness's results stay right throughout,
// nothing crashes, and every attacker's renderer is gone afterwards.
// Guests here are served at once, so the test runs over transports that
// serve several (unix:, shm:); a ring file (shm:file=) serves one guest.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;
using Misuse = std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>;

uint32_t host_visible_type(VkPhysicalDevice gpu, uint32_t allowed) {
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(gpu, &props);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((allowed >> i & 1) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
  return 0;
}

// The witness: fills a buffer with a new value on the GPU, again and
// again, and reads each back; exits 0 when every value was right.
[[noreturn]] void witness(const HostProcess& host, std::chrono::seconds how_long) {
  use_conduit_icd(host);
  VkPhysicalDevice gpu = first_gpu(make_instance());
  VkDevice device = make_device(gpu);
  VkBuffer buffer = bare_buffer(device, 4096);
  VkMemoryRequirements need{};
  vkGetBufferMemoryRequirements(device, buffer, &need);
  VkDeviceMemory memory = memory_of(device, need.size, host_visible_type(gpu, need.memoryTypeBits));
  vkBindBufferMemory(device, buffer, memory, 0);
  void* mapped = nullptr;
  if (vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS) _exit(10);
  const auto end = std::chrono::steady_clock::now() + how_long;
  for (uint32_t round = 1; std::chrono::steady_clock::now() < end; ++round) {
    VkCommandBuffer cb = recording_buffer(device);
    vkCmdFillBuffer(cb, buffer, 0, VK_WHOLE_SIZE, round);
    end_and_submit(device, cb);
    if (vkDeviceWaitIdle(device) != VK_SUCCESS) _exit(11);
    uint32_t seen[1024];
    std::memcpy(seen, mapped, sizeof seen);
    for (uint32_t v : seen)
      if (v != round) _exit(12);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  _exit(0);
}

TEST(VulkanWitness, AttacksLeaveAnotherGuestRenderingRight) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  const pid_t witness_pid = fork();
  if (witness_pid == 0) witness(host, std::chrono::seconds(8));
  const std::vector<Misuse> attacks = {
      [](VkInstance, VkPhysicalDevice, VkDevice device) {
        VkBuffer src = buffer_of(device, 4096), dst = buffer_of(device, 256 * 1024);
        VkBufferCopy region{0, 0, 256 * 1024};
        vkCmdCopyBuffer(recording_buffer(device), src, dst, 1, &region);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {
        const uint32_t data[16] = {};
        vkCmdUpdateBuffer(recording_buffer(device), buffer_of(device, 4096), 8192, sizeof data, data);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {
        VkBufferImageCopy region = buffer_image_region(64, 64);
        vkCmdCopyImageToBuffer(recording_buffer(device), image_of(device, 64, 64), VK_IMAGE_LAYOUT_GENERAL,
                               buffer_of(device, 4096), 1, &region);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {
        VkDescriptorBufferInfo info{buffer_of(device, 4096), 0, 256};
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = set_of(device, add_one_set_layout(device));
        write.dstArrayElement = 1u << 28;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        write.pBufferInfo = &info;
        vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
      },
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the witness is rendering
  for (const Misuse& attack : attacks) expect_refused_on(host, attack, 1);
  int status = 0;
  ASSERT_EQ(waitpid(witness_pid, &status, 0), witness_pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "witness status " << status;
  std::string stats;
  for (int i = 0; i < 100; ++i) {
    stats = host_stats(host.address());
    if (stats.find("\"sessions_live\": 0") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_NE(stats.find("\"sessions_live\": 0"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"crashed\": 0"), std::string::npos) << stats;
}

}  // namespace
