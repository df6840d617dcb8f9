// Waits nothing will end. A renderer runs one guest command at a time, so
// a wait inside the driver on what nothing will signal held it for good:
// after such a guest was killed its renderer lived on, holding its slot.
// Now every wait is asked a slice at a time, the renderer of a guest that
// has gone ends within a bound, and a submission waiting on a binary
// semaphore nothing will signal is refused.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;

VkSemaphore timeline(VkDevice device) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, VK_SEMAPHORE_TYPE_TIMELINE, 0};
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
  return guesttest::created(device, info, vkCreateSemaphore);
}

VkQueue queue_of(VkDevice device) {
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);
  return queue;
}

// A submission that waits for value 1 of a timeline nothing signals.
void submit_waiting_forever(VkDevice device) {
  VkSemaphore s = timeline(device);
  const uint64_t value = 1;
  VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, nullptr, 1, &value};
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, &values, 1, &s, &stage};
  vkQueueSubmit(queue_of(device), 1, &submit, VK_NULL_HANDLE);
}

bool has(const std::string& stats, const std::string& what) { return stats.find(what) != std::string::npos; }

// A guest that waits for good in `wait` is killed; its renderer ends
// within a bound (the host's sessions go back to none), nothing crashed,
// and a new guest is served.
void expect_renderer_ends_after_kill(const std::function<void(VkDevice)>& wait) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  const pid_t guest = fork();
  if (guest == 0) {
    use_conduit_icd(host);
    VkDevice device = make_device(first_gpu(make_instance()));
    wait(device);
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  int status = 0;
  ASSERT_EQ(waitpid(guest, &status, WNOHANG), 0) << "the guest's wait ended by itself";
  kill(guest, SIGKILL);
  waitpid(guest, &status, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  std::string stats;
  while (std::chrono::steady_clock::now() < deadline) {
    stats = host_stats(host.address());
    if (has(stats, "\"sessions_live\": 0")) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(has(stats, "\"sessions_live\": 0")) << stats;
  EXPECT_TRUE(has(stats, "\"crashed\": 0")) << stats;
  expect_accepted_on(host, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdFillBuffer(recording_buffer(device), buffer_of(device, 4096), 0, VK_WHOLE_SIZE, 1);
  });
}

TEST(VulkanWaits, GuestKilledInQueueWaitIdle) {
  expect_renderer_ends_after_kill([](VkDevice device) {
    submit_waiting_forever(device);
    vkQueueWaitIdle(queue_of(device));
  });
}

TEST(VulkanWaits, GuestKilledInDeviceWaitIdle) {
  expect_renderer_ends_after_kill([](VkDevice device) {
    submit_waiting_forever(device);
    vkDeviceWaitIdle(device);
  });
}

TEST(VulkanWaits, GuestKilledWaitingForATimelineValueForever) {
  expect_renderer_ends_after_kill([](VkDevice device) {
    VkSemaphore s = timeline(device);
    const uint64_t value = 5;
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &s, &value};
    vkWaitSemaphores(device, &info, UINT64_MAX);
  });
}

TEST(VulkanWaits, GuestKilledWaitingForAnEventNeverSet) {
  expect_renderer_ends_after_kill([](VkDevice device) {
    VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VkEvent event;
    vkCreateEvent(device, &info, nullptr, &event);
    VkCommandBuffer cb = recording_buffer(device);
    vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, nullptr, 0,
                    nullptr, 0, nullptr);
    end_and_submit(device, cb);
    vkQueueWaitIdle(queue_of(device));
  });
}

TEST(VulkanWaits, GuestKilledWaitingForResultsOfAQueryNeverRun) {
  expect_renderer_ends_after_kill([](VkDevice device) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_OCCLUSION;
    info.queryCount = 1;
    VkQueryPool pool;
    vkCreateQueryPool(device, &info, nullptr, &pool);
    uint64_t result = 0;
    vkGetQueryPoolResults(device, pool, 0, 1, sizeof result, &result, 8,
                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  });
}

// The guest's own timeout still holds across the host's slices, and a
// signal from the host side ends the wait.
TEST(VulkanWaits, TimelineWaitsKeepTheProgramsTimeout) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkSemaphore s = timeline(device);
    const uint64_t value = 1;
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &s, &value};
    const auto start = std::chrono::steady_clock::now();
    if (vkWaitSemaphores(device, &info, 600'000'000) != VK_TIMEOUT) std::exit(6);
    if (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(550)) std::exit(7);
    VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, 1};
    vkSignalSemaphore(device, &signal);
    if (vkWaitSemaphores(device, &info, UINT64_MAX) != VK_SUCCESS) std::exit(8);
  });
}

// The timeline commands name timeline semaphores only: lavapipe asked a
// binary one for its value through a null entry point.
VkSemaphore binary(VkDevice device) {
  return guesttest::created(device, VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, vkCreateSemaphore);
}

TEST(VulkanWaits, CounterOfATimelineSignalledByTheHostRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkSemaphore s = timeline(device);
    VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, 5};
    vkSignalSemaphore(device, &signal);
    uint64_t value = 0;
    if (vkGetSemaphoreCounterValue(device, s, &value) != VK_SUCCESS || value != 5) std::exit(6);
  });
}

TEST(VulkanWaits, CounterOfABinarySemaphore) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    uint64_t value = 0;
    vkGetSemaphoreCounterValue(device, binary(device), &value);
  });
}

TEST(VulkanWaits, HostSignalOfABinarySemaphore) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, binary(device), 1};
    vkSignalSemaphore(device, &signal);
  });
}

TEST(VulkanWaits, HostWaitForABinarySemaphore) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkSemaphore s = binary(device);
    const uint64_t value = 1;
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &s, &value};
    vkWaitSemaphores(device, &info, 0);
  });
}

TEST(VulkanWaits, SubmissionWaitingOnABinarySemaphoreNothingSignals) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkSemaphore s = binary(device);
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 1, &s, &stage};
    vkQueueSubmit(queue_of(device), 1, &submit, VK_NULL_HANDLE);
  });
}

TEST(VulkanWaits, BinarySemaphoreSignalledThenWaitedRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkSemaphore s = binary(device);
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo signal{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    signal.signalSemaphoreCount = 1;
    signal.pSignalSemaphores = &s;
    VkSubmitInfo wait{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 1, &s, &stage};
    VkSubmitInfo both[] = {signal, wait};
    vkQueueSubmit(queue_of(device), 2, both, VK_NULL_HANDLE);
  });
}

// An instance destroyed before its device takes the device with it, in the
// driver's order: nothing crashes, and the program's next instance works.
TEST(VulkanWaits, InstanceDestroyedBeforeItsDevice) {
  HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  auto child = [&] {
    use_conduit_icd(host);
    VkInstance first = make_instance();
    VkDevice device = make_device(first_gpu(first));
    buffer_of(device, 4096);
    vkDestroyInstance(first, nullptr);
    VkDevice second = make_device(first_gpu(make_instance()));
    VkCommandBuffer cb = recording_buffer(second);
    vkCmdFillBuffer(cb, buffer_of(second, 4096), 0, VK_WHOLE_SIZE, 1);
    end_and_submit(second, cb);
    std::exit(vkDeviceWaitIdle(second) == VK_SUCCESS ? 0 : 3);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "");
  EXPECT_TRUE(has(host_stats(host.address()), "\"crashed\": 0"));
}

// Memory and a buffer ended while a submission still writes them: the host
// lets the submission finish first (lavapipe's queue thread wrote into the
// freed memory, and the renderer crashed, found by the Vulkan session
// fuzzer).
TEST(VulkanWaits, MemoryFreedWhileASubmissionWritesIt) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    constexpr VkDeviceSize kBytes = VkDeviceSize{64} << 20;
    VkBuffer buffer = bare_buffer(device, kBytes);
    VkDeviceMemory memory = bind_own_memory(device, buffer);
    VkCommandBuffer cb = recording_buffer(device);
    for (uint32_t i = 0; i < 16; ++i) vkCmdFillBuffer(cb, buffer, 0, VK_WHOLE_SIZE, i);
    end_and_submit(device, cb);
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
  });
}

// A submission's fence tells the host when its command buffers may be
// re-recorded or freed: a fence signalled already, or held by a submission
// still pending, would say so too early (lavapipe left a signalled fence
// signalled, the host re-recorded the command buffer, and its queue thread
// read the freed commands, found by the Vulkan session fuzzer).

VkFence fence_of(VkDevice device, VkFenceCreateFlags flags) {
  VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  info.flags = flags;
  return guesttest::created(device, info, vkCreateFence);
}

// A command buffer of many large fills, ended: work the queue takes a while over.
VkCommandBuffer slow_commands(VkDevice device) {
  VkBuffer buffer = buffer_of(device, VkDeviceSize{16} << 20);
  VkCommandBuffer cb = recording_buffer(device);
  for (uint32_t i = 0; i < 16; ++i) vkCmdFillBuffer(cb, buffer, 0, VK_WHOLE_SIZE, i);
  vkEndCommandBuffer(cb);
  return cb;
}

TEST(VulkanWaits, FenceWaitedForAndResetServesTheNextSubmission) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkFence fence = fence_of(device, VK_FENCE_CREATE_SIGNALED_BIT);
    VkCommandBuffer cb = slow_commands(device);
    for (int frame = 0; frame < 3; ++frame) {
      vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
      vkResetFences(device, 1, &fence);
      submit(device, cb, fence);
    }
  });
}

TEST(VulkanWaits, SubmissionWithAFenceSignalledAlready) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    submit(device, slow_commands(device), fence_of(device, VK_FENCE_CREATE_SIGNALED_BIT));
  });
}

TEST(VulkanWaits, OneFenceForTwoSubmissionsAtOnce) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkFence fence = fence_of(device, 0);
    submit(device, slow_commands(device), fence);
    submit(device, slow_commands(device), fence);
  });
}

// The host's total of round trips, from its statistics, once the guests
// it served have ended (a renderer's counters join the total when it ends).
uint64_t round_trips(const HostProcess& host) {
  std::string stats = host_stats(host.address());
  for (int tries = 0; tries < 100 && !has(stats, "\"sessions_live\": 0"); ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stats = host_stats(host.address());
  }
  const std::string key = "\"round_trips\": ";
  const size_t total = stats.find("\"total\"");
  const size_t at = stats.find(key, total);
  return total == std::string::npos || at == std::string::npos ? 0 : std::stoull(stats.substr(at + key.size()));
}

// Where cores are to spare, a host tells of a fence as soon as it
// signals, not only after the program's next batch: a program that works
// between a submission and its wait (records its next frame) finds the
// fence told of and asks the host nothing.
TEST(VulkanWaits, AFenceSignalledWhileTheProgramWorkedIsWaitedForWithoutAsking) {
  ::setenv("CONDUIT_PATIENCE", "1", 1);  // the host and the guest: as on four cores or more
  auto frames = [](int count) {
    return [count](VkInstance, VkPhysicalDevice, VkDevice device) {
      VkFence fence = fence_of(device, 0);
      for (int frame = 0; frame < count; ++frame) {
        vkQueueSubmit(queue_of(device), 0, nullptr, fence);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS) std::exit(5);
        vkResetFences(device, 1, &fence);
      }
    };
  };
  for (const char* transport : {"unix:", "shm:"}) {
    SCOPED_TRACE(transport);
    ::setenv("CONDUIT_TEST_TRANSPORT", transport, 1);
    HostProcess host;
    ASSERT_TRUE(host.ok()) << host.error();
    const uint64_t start = round_trips(host);
    expect_accepted_on(host, frames(0));
    const uint64_t setup = round_trips(host) - start;
    expect_accepted_on(host, frames(20));
    const uint64_t with_frames = round_trips(host) - start - setup;
    EXPECT_GT(setup, 0u) << "the statistics count round trips";
    // Most of them: on a loaded machine lavapipe's queue thread may run a
    // submission only after the host's watch of 2 ms; the build before
    // asked for 16 to 20.
    EXPECT_LE(with_frames, setup + 8) << "20 waits for fences that signalled long before";
  }
  ::unsetenv("CONDUIT_TEST_TRANSPORT");
  ::unsetenv("CONDUIT_PATIENCE");
}

}  // namespace
