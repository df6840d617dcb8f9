// The image every scene draws its frame into: colour and depth at the bench's
// size, a render pass that clears both and leaves the colour ready to be
// copied (to the window, or back to the host for the check), its framebuffer.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "context.h"
#include "handle.h"
#include "resources.h"

namespace vkbench {

class Canvas {
 public:
  Canvas(const Context& context, VkExtent2D extent);

  VkExtent2D extent() const { return colour_.extent; }
  VkFormat format() const { return colour_.format; }
  VkFormat depth_format() const { return depth_.format; }
  VkImage colour_image() const { return colour_.image.get(); }
  VkRenderPass render_pass() const { return render_pass_.get(); }

  // Begins the render pass, cleared to `clear`, with the whole canvas as viewport.
  void begin(VkCommandBuffer cmd, const VkClearColorValue& clear) const;

  // One full-screen pass into the canvas: `pipeline` draws a triangle that
  // covers it, reading descriptor set `set` of `layout`.
  void draw_full_screen(VkCommandBuffer cmd, VkPipeline pipeline, VkPipelineLayout layout,
                        VkDescriptorSet set) const;

  // The last frame's pixels, 4 bytes each, row by row. The device must be
  // idle and the canvas drawn at least once.
  std::vector<uint32_t> read_back() const;

 private:
  const Context& context_;
  ImageResource colour_;
  ImageResource depth_;
  RenderPass render_pass_;  // destroyed after the framebuffer that uses it
  Framebuffer framebuffer_;
};

// How many pixels differ from the first one: 0 means a frame of one colour,
// which no scene draws when it works.
size_t pixels_unlike_first(const std::vector<uint32_t>& pixels);

}  // namespace vkbench
