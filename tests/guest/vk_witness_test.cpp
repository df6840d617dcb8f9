// Attacks against one host while a GL and a Vulkan guest render: every
// attacker loses only its own Vulkan, the witnesses' frames stay right
// throughout, nothing crashes, every attacker's renderer is gone
// afterwards, and the supervisor is back to its footprint.
// Guests here are served at once, so the test runs over transports that
// serve several (unix:, shm:); a ring file (shm:file=) serves one guest.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../sanitizers.h"
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

bool told_to_stop(int stop_fd) {
  pollfd in{stop_fd, POLLIN, 0};
  return poll(&in, 1, 0) > 0;  // data or end of file: either ends the run
}

// The Vulkan witness: fills a buffer with a new value on the GPU, again and
// again, and reads each back, until `stop_fd` closes; exits 0 when every
// value was right.
[[noreturn]] void vulkan_witness(const HostProcess& host, int stop_fd) {
  use_conduit_icd(host);
  VkPhysicalDevice gpu = first_gpu(make_instance());
  VkDevice device = make_device(gpu);
  VkBuffer buffer = bare_buffer(device, 4096);
  const VkMemoryRequirements need = requirements_of(device, buffer);
  VkDeviceMemory memory = memory_of(device, need.size, host_visible_type(gpu, need.memoryTypeBits));
  vkBindBufferMemory(device, buffer, memory, 0);
  void* mapped = nullptr;
  if (vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS) _exit(10);
  uint32_t round = 1;
  for (; !told_to_stop(stop_fd); ++round) {
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
  _exit(round > 1 ? 0 : 13);
}

// The GL witness (gl_witness_main.cpp), its standard input `stop_fd`.
[[noreturn]] void gl_witness(const HostProcess& host, int stop_fd) {
  dup2(stop_fd, STDIN_FILENO);
  setenv("CONDUIT_HOST", host.address().c_str(), 1);
  const char* exe = std::getenv("CONDUIT_GL_WITNESS");
  execl(exe, exe, static_cast<char*>(nullptr));
  _exit(127);
}

// A witness child, running until stop() closes its pipe.
class Witness {
 public:
  Witness(const HostProcess& host, void (*run)(const HostProcess&, int)) {
    // Close-on-exec: a witness started later must not hold this one's pipe
    // open (the GL witness is a program of its own).
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(fds[1]);
      run(host, fds[0]);
    }
    close(fds[0]);
    stop_fd_ = fds[1];
  }
  // The witness's exit status, 0 when every frame it rendered was right.
  int stop() {
    close(stop_fd_);
    int status = 0;
    if (pid_ <= 0 || waitpid(pid_, &status, 0) != pid_) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int stop_fd_ = -1;
};

// The supervisor's footprint: resident bytes and open descriptors.
struct Footprint {
  long rss_kib = 0;
  long fds = 0;
};

Footprint footprint_of(pid_t pid) {
  Footprint f;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) f.rss_kib = std::stol(line.substr(6));
  for (const auto& entry : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    (void)entry;
    ++f.fds;
  }
  return f;
}

// One attack of each class the host checks.
std::vector<Misuse> attacks() {
  return {
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // a copy past its source
        VkBuffer src = buffer_of(device, 4096), dst = buffer_of(device, 256 * 1024);
        VkBufferCopy region{0, 0, 256 * 1024};
        vkCmdCopyBuffer(recording_buffer(device), src, dst, 1, &region);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // an update past its buffer
        const uint32_t data[16] = {};
        vkCmdUpdateBuffer(recording_buffer(device), buffer_of(device, 4096), 8192, sizeof data, data);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // an image read into a buffer too small
        VkBufferImageCopy region = buffer_image_region(64, 64);
        vkCmdCopyImageToBuffer(recording_buffer(device), image_of(device, 64, 64), VK_IMAGE_LAYOUT_GENERAL,
                               buffer_of(device, 4096), 1, &region);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // a descriptor far past its binding
        VkDescriptorBufferInfo info{buffer_of(device, 4096), 0, 256};
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = set_of(device, add_one_set_layout(device));
        write.dstArrayElement = 1u << 28;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        write.pBufferInfo = &info;
        vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // memory bound past its end
        VkBuffer buffer = bare_buffer(device, 4096);
        const VkMemoryRequirements need = requirements_of(device, buffer);
        vkBindBufferMemory(device, buffer, memory_for(device, need, need.size), need.size);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // a query past its pool
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = 4;
        VkQueryPool pool = VK_NULL_HANDLE;
        vkCreateQueryPool(device, &info, nullptr, &pool);
        vkCmdWriteTimestamp(recording_buffer(device), VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 1u << 30);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // a shader module of an id bound of all ones
        std::vector<uint32_t> words(add_one_comp, add_one_comp + sizeof add_one_comp / 4);
        words[3] = 0xffffffff;
        VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        info.codeSize = words.size() * 4;
        info.pCode = words.data();
        VkShaderModule module = VK_NULL_HANDLE;
        vkCreateShaderModule(device, &info, nullptr, &module);
      },
      [](VkInstance, VkPhysicalDevice, VkDevice device) {  // a render pass ended that never began
        vkCmdEndRenderPass(recording_buffer(device));
      },
  };
}

// While a GL and a Vulkan guest render, a guest attacks the host with one
// misuse of each class: each attacker loses only its own Vulkan, nothing
// crashes, both witnesses' frames stay right throughout, every attacker's
// renderer ends, and the supervisor's memory and descriptors return to
// where they were before the attacks.
TEST(VulkanWitness, AttacksLeaveAnotherGuestRenderingRight) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  Witness vk(host, vulkan_witness), gl(host, gl_witness);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // both witnesses are rendering
  constexpr int kWitnesses = 2;
  const std::vector<Misuse> all = attacks();
  expect_refused_on(host, all.front(), kWitnesses);  // the supervisor's first guest of each kind is behind it
  const Footprint before = footprint_of(host.pid());
  for (int round = 0; round < 3; ++round)
    for (const Misuse& attack : all) expect_refused_on(host, attack, kWitnesses);
  EXPECT_EQ(vk.stop(), 0) << "the Vulkan witness saw a wrong value or lost its device";
  EXPECT_EQ(gl.stop(), 0) << "the GL witness saw a wrong frame or lost its context";
  std::string stats;
  for (int i = 0; i < 100; ++i) {
    stats = host_stats(host.address());
    if (stats.find("\"sessions_live\": 0") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_NE(stats.find("\"sessions_live\": 0"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"crashed\": 0"), std::string::npos) << stats;
  const Footprint after = footprint_of(host.pid());
  EXPECT_LE(after.fds, before.fds) << "descriptors the attackers' sessions left open";
#ifndef CONDUIT_UNDER_ASAN
  // (ASan's quarantine holds what the supervisor freed: its size says nothing there.)
  EXPECT_LT(after.rss_kib - before.rss_kib, 4 * 1024) << "the supervisor grew by what the attacks left behind";
#endif
}

}  // namespace
