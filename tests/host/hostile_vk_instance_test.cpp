// Instance-extension commands a guest library never sends, sent raw: a
// command of an instance extension runs only through an instance created
// with it, and the host's instances enable none of those carried (the
// window system's, which the guest answers itself). Refused, the command
// loses the guest's Vulkan alone: its renderer lives, its GL draws on, and
// another guest renders throughout.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "../wire/identity_handles.h"
#include "host_fixture.h"
#include "renderer_guests.h"
#include "test_guest.h"
#include "wire/control.h"
#include "wire/vk_codec.h"
#include "wire/vk_commands.h"

namespace hosttest {
namespace {

using wire::vk::VkOp;

// A guest's side of the handles as a raw stream names them: a handle is its
// id, and new objects take ids from 1 on.
struct RawIds final : wiretest::IdentityHandles {
  RawIds() : IdentityHandles(1) {}
};

constexpr uint64_t kInstanceId = 1;  // RawIds' first

template <typename Args>
void put(wire::Writer& w, RawIds& ids, VkOp op, const Args& args) {
  const uint32_t opcode = static_cast<uint32_t>(op);
  const size_t at = w.begin(opcode);
  wire::vk::encode_args(w, *wire::vk::command_desc(opcode), &args, ids);
  w.end(at);
}

// vkCreateInstance naming `extensions` (the host makes its instance with
// the carried ones it runs itself: none of these).
void create_instance(wire::Writer& w, RawIds& ids, const std::vector<const char*>& extensions) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance made{};
  put(w, ids, VkOp::vkCreateInstance, wire::vk::VkArgs_vkCreateInstance{&info, nullptr, &made});
}

// VK_EXT_headless_surface's one command, through the instance made first.
void create_headless_surface(wire::Writer& w, RawIds& ids) {
  VkHeadlessSurfaceCreateInfoEXT info{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
  VkSurfaceKHR made{};
  put(w, ids, VkOp::vkCreateHeadlessSurfaceEXT,
      wire::vk::VkArgs_vkCreateHeadlessSurfaceEXT{reinterpret_cast<VkInstance>(kInstanceId), &info, nullptr, &made});
}

class HostileVulkanInstance : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("CONDUIT_EXE")) GTEST_SKIP() << "CONDUIT_EXE not set";
    ASSERT_TRUE(host_.ok()) << host_.error();
    witness_ = ready_guest(host_.address());
    ASSERT_TRUE(witness_);
    ASSERT_TRUE(renders(*witness_, 60, 1));
    attacker_ = ready_guest(host_.address());
    ASSERT_TRUE(attacker_);
  }

  // The attacker's `stream` loses its Vulkan at vkCreateHeadlessSurfaceEXT;
  // its GL, the witness and every renderer live on.
  void expect_surface_refused(const wire::Writer& stream) {
    ASSERT_TRUE(attacker_->send_raw(stream.bytes()).ok());
    wire::ContextLost lost{};
    ASSERT_TRUE(attacker_->wait_lost(&lost));
    EXPECT_EQ(lost.context_id, wire::kVulkanContextId);
    EXPECT_EQ(lost.opcode, static_cast<uint32_t>(VkOp::vkCreateHeadlessSurfaceEXT));
    EXPECT_TRUE(renders(*attacker_, 200, 2)) << "the attacker's GL context goes on";
    EXPECT_TRUE(renders(*witness_, 80, 3)) << "another guest goes on";
    EXPECT_EQ(host_.server().stats_json()["renderers"]["crashed"].get<int>(), 0);
  }

  RunningHost host_{isolated()};
  std::unique_ptr<TestGuest> witness_, attacker_;
};

TEST_F(HostileVulkanInstance, InstanceExtensionCommandThroughAnInstanceWithoutIt) {
  wire::Writer w;
  RawIds ids;
  create_instance(w, ids, {});
  create_headless_surface(w, ids);
  expect_surface_refused(w);
}

// Named at the instance's creation, the extension is still not the host's:
// surfaces are the guest's own, and the host makes its instance without.
TEST_F(HostileVulkanInstance, InstanceExtensionCommandThroughAnInstanceThatNamedIt) {
  wire::Writer w;
  RawIds ids;
  create_instance(w, ids, {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME});
  create_headless_surface(w, ids);
  expect_surface_refused(w);
}

// Control: the same instance's core commands run, nothing lost.
TEST_F(HostileVulkanInstance, CoreCommandThroughTheSameInstanceRuns) {
  RawIds ids;
  create_instance(attacker_->w(), ids, {});
  uint32_t count = 0;
  put(attacker_->w(), ids, VkOp::vkEnumeratePhysicalDevices,
      wire::vk::VkArgs_vkEnumeratePhysicalDevices{reinterpret_cast<VkInstance>(kInstanceId), &count, nullptr});
  ASSERT_TRUE(attacker_->call().ok());
  EXPECT_TRUE(renders(*attacker_, 200, 2));
  EXPECT_TRUE(attacker_->lost.empty());
  EXPECT_EQ(host_.server().stats_json()["renderers"]["crashed"].get<int>(), 0);
}

}  // namespace
}  // namespace hosttest
