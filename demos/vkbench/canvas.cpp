#include "canvas.h"

#include <cstring>

#include "check.h"
#include "pipeline.h"

namespace vkbench {

Canvas::Canvas(const Context& context, VkExtent2D extent) : context_(context) {
  const VkFormat format =
      context.pick_format({VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM},
                          VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                              VK_FORMAT_FEATURE_TRANSFER_SRC_BIT);
  const VkFormat depth_format = context.pick_format(
      {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM},
      VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
  colour_ = create_image(context, format, extent,
                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                         VK_IMAGE_ASPECT_COLOR_BIT);
  depth_ = create_image(context, depth_format, extent, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                        VK_IMAGE_ASPECT_DEPTH_BIT);
  PassDesc pass{};
  pass.colour_format = format;
  pass.colour_load = VK_ATTACHMENT_LOAD_OP_CLEAR;
  // The previous frame was copied out of the canvas (window or read-back).
  pass.colour_before_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  pass.colour_after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT};
  pass.depth_format = depth_format;
  render_pass_ = make_render_pass(context.device(), pass);
  framebuffer_ = make_framebuffer(context.device(), render_pass_.get(), extent, colour_.view.get(),
                                  depth_.view.get());
}

void Canvas::begin(VkCommandBuffer cmd, const VkClearColorValue& clear) const {
  VkClearValue clears[2];
  clears[0].color = clear;
  clears[1].depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  info.renderPass = render_pass_.get();
  info.framebuffer = framebuffer_.get();
  info.renderArea = {{0, 0}, extent()};
  info.clearValueCount = 2;
  info.pClearValues = clears;
  vkCmdBeginRenderPass(cmd, &info, VK_SUBPASS_CONTENTS_INLINE);
  set_viewport(cmd, extent());
}

void Canvas::draw_full_screen(VkCommandBuffer cmd, VkPipeline pipeline, VkPipelineLayout layout,
                              VkDescriptorSet set) const {
  begin(cmd, {{0.0f, 0.0f, 0.0f, 1.0f}});
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRenderPass(cmd);
}

std::vector<uint32_t> Canvas::read_back() const {
  const VkExtent2D size = extent();
  const VkDeviceSize bytes = VkDeviceSize(size.width) * size.height * 4;
  BufferResource buffer =
      create_buffer(context_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, Access::kHostRead);
  context_.submit_once([&](VkCommandBuffer cmd) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {size.width, size.height, 1};
    vkCmdCopyImageToBuffer(cmd, colour_.image.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           buffer.buffer.get(), 1, &region);
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &to_host, 0, nullptr, 0, nullptr);
  });
  buffer.invalidate(context_);
  std::vector<uint32_t> pixels(size_t(size.width) * size.height);
  std::memcpy(pixels.data(), buffer.mapped, bytes);
  return pixels;
}

size_t pixels_unlike_first(const std::vector<uint32_t>& pixels) {
  size_t count = 0;
  for (uint32_t pixel : pixels) count += pixel != pixels.front();
  return count;
}

}  // namespace vkbench
