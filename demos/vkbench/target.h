// Where a frame goes once the scene has drawn it into the canvas: nowhere
// (off-screen: the frame is the submission) or an X window's swapchain.
#pragma once

#include <vulkan/vulkan.h>

#include <memory>
#include <string>

#include "canvas.h"
#include "context.h"
#include "frames.h"

namespace vkbench {

class Target {
 public:
  virtual ~Target() = default;

  // "800x600 windowed": the surface line of the report.
  virtual std::string description() const = 0;
  // Waits for the image this frame will show, to be signalled on slot.acquired.
  virtual void acquire(const FrameSlot& slot) = 0;
  // Records the copy of the canvas into that image.
  virtual void record_output(VkCommandBuffer cmd, const Canvas& canvas) = 0;
  // Submits slot.cmd (ended), signalling slot.done, then shows the image.
  virtual void submit(const FrameSlot& slot) = 0;
};

std::unique_ptr<Target> make_offscreen_target(const Context& context, VkExtent2D extent);

// Opens an X window of `extent`; the context must have been made windowed.
std::unique_ptr<Target> make_window_target(const Context& context, VkExtent2D extent,
                                           VkPresentModeKHR present_mode);

}  // namespace vkbench
