#include "frames.h"

#include "check.h"

namespace vkbench {

FrameRing::FrameRing(const Context& context, uint32_t in_flight)
    : context_(context), in_flight_(in_flight) {
  VkDevice device = context.device();
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = context.queue_family();
  VkCommandPool pool;
  check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
  pool_ = CommandPool(device, pool);
  for (uint32_t i = 0; i < in_flight_; ++i) {
    FrameSlot& slot = slots_[i];
    slot.index = i;
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device, &alloc, &slot.cmd), "vkAllocateCommandBuffers");
    // Signalled at first, so the first wait on each slot returns at once.
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    VkFence fence;
    check(vkCreateFence(device, &fence_info, nullptr, &fence), "vkCreateFence");
    slot.done = Fence(device, fence);
    VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore semaphore;
    check(vkCreateSemaphore(device, &semaphore_info, nullptr, &semaphore), "vkCreateSemaphore");
    slot.acquired = Semaphore(device, semaphore);
  }
}

FrameSlot& FrameRing::wait_next() {
  FrameSlot& slot = slots_[count_++ % in_flight_];
  VkFence fence = slot.done.get();
  check(vkWaitForFences(context_.device(), 1, &fence, VK_TRUE, kFenceTimeoutNs), "vkWaitForFences");
  return slot;
}

void FrameRing::begin(FrameSlot& slot) const {
  VkFence fence = slot.done.get();
  check(vkResetFences(context_.device(), 1, &fence), "vkResetFences");
  VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(slot.cmd, &info), "vkBeginCommandBuffer");
}

}  // namespace vkbench
