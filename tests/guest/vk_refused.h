// Guest Vulkan misuse the host refuses: the program's Vulkan is lost, its
// renderer and the host live on.
#pragma once

#include <functional>

#include "vk_device.h"

namespace guesttest {

// In a child process, against a host of this test: `misuse` breaks a rule on
// `device`; the next command that waits must find the program's Vulkan
// lost, and the host's renderer alive (nothing crashed). Each case is a
// process of its own: the loss is its connection's.
void expect_refused(const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse);

}  // namespace guesttest
