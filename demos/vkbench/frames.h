// Frames in flight: each slot has its own command buffer and fence, so the
// CPU records one frame while the device still runs the one before.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

#include "context.h"
#include "handle.h"

namespace vkbench {

// Programs keep two or three; up to four here (--frames-in-flight).
constexpr uint32_t kMaxFramesInFlight = 4;

struct FrameSlot {
  uint32_t index = 0;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  Fence done;          // signalled when the slot's last submission has finished
  Semaphore acquired;  // on-screen: the swapchain image may be written
};

class FrameRing {
 public:
  FrameRing(const Context& context, uint32_t in_flight);

  // The next slot, once the device has finished the frame it last carried.
  FrameSlot& wait_next();
  // Resets the slot's fence and begins its command buffer.
  void begin(FrameSlot& slot) const;

 private:
  const Context& context_;
  CommandPool pool_;  // frees the slots' command buffers
  std::array<FrameSlot, kMaxFramesInFlight> slots_;
  uint32_t in_flight_;  // slots in use
  uint64_t count_ = 0;
};

}  // namespace vkbench
