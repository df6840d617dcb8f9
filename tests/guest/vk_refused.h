// Guest Vulkan misuse the host refuses: the program's Vulkan is lost, its
// renderer and the host live on.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "vk_device.h"

namespace guesttest {

// In a child process, against a host of this test: `misuse` breaks a rule on
// `device`; the next command that waits must find the program's Vulkan
// lost, and the host's renderer alive (nothing crashed). Each case is a
// process of its own: the loss is its connection's.
void expect_refused(const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse);

// The same, for a use within the rules: the device is still working after
// it (a control for the refusals: the checks refuse only what breaks them).
// The same against a host of the caller's.
// `others`: the sessions of other guests the host serves meanwhile.
void expect_refused_on(const HostProcess& host, const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse,
                       int others = 0);
void expect_accepted_on(const HostProcess& host, const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& use);

// `conduit info --stats` of the host at `address`.
std::string host_stats(const std::string& address);

void expect_accepted(const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& use);

// The same on a device made with `extensions` enabled (an extension's commands).
void expect_refused_with(const std::vector<const char*>& extensions,
                         const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& misuse);
void expect_accepted_with(const std::vector<const char*>& extensions,
                          const std::function<void(VkInstance, VkPhysicalDevice, VkDevice)>& use);

}  // namespace guesttest
