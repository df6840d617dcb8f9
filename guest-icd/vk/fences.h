// fences.cpp: fence states the guest knows without asking the host.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include <vulkan/vulkan.h>

namespace icd::vk {

void note_fence_created(VkFence fence, bool signalled);
// Reset or destroyed: nothing known any more.
void note_fence_gone(std::span<const VkFence> fences);
void note_fence_submitted(VkQueue queue, VkFence fence);
// A present whose copy signals `fence`: the host will tell of every fence
// submitted to the same queue up to it.
void note_presented(VkFence fence);

// Answers vkWaitForFences (all or any) in the guest when the fences are
// known signalled or the host will tell; false when the host must be asked.
bool wait_without_asking(std::span<const VkFence> fences, bool all, uint64_t timeout_ns, VkResult* result);
bool known_signalled(VkFence fence);
// Whether the host has told that the fences are signalled as
// vkWaitForFences asks (all or any); checked with the connection's lock held.
std::function<bool()> told_signalled(std::span<const VkFence> fences, bool all);

}  // namespace icd::vk
