// A program of an older Vulkan than the host's calls a newer core command
// by the name of the extension it was promoted from, which travels as the
// core command: the host's instance must have every core command it
// carries, whatever version the program asked for (lavapipe gives no entry
// point past its instance's version, and the loader called through null).
#include <chrono>
#include <string>
#include <thread>

#include "vk_refused.h"

namespace {

using namespace guesttest;

// VK_KHR_maintenance4 on a Vulkan 1.1 instance: its
// vkGetDeviceBufferMemoryRequirementsKHR is 1.3's core command.
void buffer_requirements_of_a_1_1_program(const HostProcess& host) {
  use_conduit_icd(host);
  VkInstance instance = make_instance(VK_API_VERSION_1_1);
  VkDevice device = make_device(first_gpu(instance), {VK_KHR_MAINTENANCE_4_EXTENSION_NAME});
  if (!device) std::exit(6);
  auto requirements = reinterpret_cast<PFN_vkGetDeviceBufferMemoryRequirementsKHR>(
      vkGetDeviceProcAddr(device, "vkGetDeviceBufferMemoryRequirementsKHR"));
  if (!requirements) std::exit(7);
  VkBufferCreateInfo buffer{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer.size = 1000;
  buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkDeviceBufferMemoryRequirements info{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS};
  info.pCreateInfo = &buffer;
  VkMemoryRequirements2 out{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
  requirements(device, &info, &out);
  if (out.memoryRequirements.size < buffer.size || !out.memoryRequirements.memoryTypeBits) std::exit(2);
  if (vkDeviceWaitIdle(device) != VK_SUCCESS) std::exit(3);
  if (host_stats(host.address()).find("\"crashed\": 0") == std::string::npos) std::exit(4);
  std::exit(0);
}

TEST(VulkanInstanceVersions, NewerCoreCommandByItsExtensionsNameRunsForAnOlderProgram) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  EXPECT_EXIT(buffer_requirements_of_a_1_1_program(host), ::testing::ExitedWithCode(0), "");
}

}  // namespace
