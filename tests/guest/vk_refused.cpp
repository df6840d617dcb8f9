#include "vk_refused.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace guesttest {

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

namespace {

// The case's child: `use` on a fresh device, then the device's state after
// it must be `expected`, with the host's renderer alive.
// `others`: the sessions of other guests the host serves meanwhile.
void expect_device_after(const HostProcess& host, const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& use,
                         VkResult expected, int others = 0, const std::vector<const char*>& extensions = {}) {
  auto child = [&] {
    use_conduit_icd(host);
    VkInstance instance = make_instance();
    VkPhysicalDevice gpu = first_gpu(instance);
    VkDevice device = make_device(gpu, extensions);
    if (!device) std::exit(6);
    use(instance, gpu, device);
    if (vkDeviceWaitIdle(device) != expected) std::exit(3);
    // Ours is the one session left once the host's start-up probe has gone.
    for (int i = 0; i < 100; ++i) {
      const std::string stats = host_stats(host.address());
      if (stats.find("\"crashed\": 0") == std::string::npos) std::exit(4);
      if (stats.find("\"sessions_live\": " + std::to_string(1 + others)) != std::string::npos) std::exit(0);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::exit(5);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "");
}

}  // namespace

void expect_refused(const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  expect_device_after(host, misuse, VK_ERROR_DEVICE_LOST);
}

void expect_accepted(const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& use) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  expect_device_after(host, use, VK_SUCCESS);
}

void expect_refused_with(const std::vector<const char*>& extensions,
                         const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  expect_device_after(host, misuse, VK_ERROR_DEVICE_LOST, 0, extensions);
}

void expect_accepted_with(const std::vector<const char*>& extensions,
                          const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& use) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  expect_device_after(host, use, VK_SUCCESS, 0, extensions);
}

void expect_refused_on(const HostProcess& host, const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse,
                       int others) {
  expect_device_after(host, misuse, VK_ERROR_DEVICE_LOST, others);
}

void expect_accepted_on(const HostProcess& host, const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& use) {
  expect_device_after(host, use, VK_SUCCESS);
}

}  // namespace guesttest

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Each case's child is forked from a process that never used Vulkan: no
  // connection or loader state is inherited.
  GTEST_FLAG_SET(death_test_style, "fast");
  return RUN_ALL_TESTS();
}
