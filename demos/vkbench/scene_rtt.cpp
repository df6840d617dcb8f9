// rtt: a chain of render passes, each drawing into an image the next one
// samples (a blur and a colour shift); the last draws into the canvas.
#include <array>
#include <cstdint>

#include "check.h"
#include "descriptors.h"
#include "fullscreen_vert.h"
#include "pipeline.h"
#include "resources.h"
#include "rtt_filter_frag.h"
#include "rtt_pattern_frag.h"
#include "scene.h"

namespace vkbench {
namespace {

struct RttPush {
  float texel[2];
  float time;
  float hue;
};

constexpr VkFormat kChainFormat = VK_FORMAT_R8G8B8A8_UNORM;

class RttScene : public Scene {
 public:
  RttScene(const Context& context, const Canvas& canvas, uint32_t passes)
      : canvas_(canvas), passes_(passes) {
    VkDevice device = context.device();
    PassDesc pass{};
    pass.colour_format = kChainFormat;
    pass.colour_load = VK_ATTACHMENT_LOAD_OP_DONT_CARE;  // every pass covers the whole image
    pass.colour_before_stage = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    pass.colour_after = {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT};
    pass_ = make_render_pass(device, pass);
    sampler_ = make_sampler(device, VK_FILTER_LINEAR);
    set_layout_ = make_set_layout(
        device, {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}});
    pool_ = make_descriptor_pool(device, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2);
    // Two images in turn: pass i reads image (i - 1) % 2 and writes image i % 2.
    for (uint32_t i = 0; i < 2; ++i) {
      images_[i] = create_image(context, kChainFormat, canvas.extent(),
                                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                VK_IMAGE_ASPECT_COLOR_BIT);
      framebuffers_[i] =
          make_framebuffer(device, pass_.get(), canvas.extent(), images_[i].view.get());
      sets_[i] = allocate_set(device, pool_.get(), set_layout_.get());
      write_image(device, sets_[i], 0, images_[i].view.get(), sampler_.get());
    }
    layout_ = make_pipeline_layout(device, set_layout_.get(), sizeof(RttPush),
                                   VK_SHADER_STAGE_FRAGMENT_BIT);
    pattern_ = make_graphics_pipeline(
        device, {spirv(fullscreen_vert), spirv(rtt_pattern_frag), layout_.get(), pass_.get()});
    filter_ = make_graphics_pipeline(
        device, {spirv(fullscreen_vert), spirv(rtt_filter_frag), layout_.get(), pass_.get()});
    // The canvas's render pass has depth: a pipeline of its own.
    filter_to_canvas_ = make_graphics_pipeline(
        device,
        {spirv(fullscreen_vert), spirv(rtt_filter_frag), layout_.get(), canvas.render_pass()});
  }

  void record(VkCommandBuffer cmd, uint32_t, uint64_t frame) override {
    const float time = float(frame % 100000) * 0.05f;
    begin_chain_pass(cmd, 0);
    draw(cmd, pattern_.get(), VK_NULL_HANDLE, {{0.0f, 0.0f}, time, 0.0f});
    vkCmdEndRenderPass(cmd);
    const VkExtent2D extent = canvas_.extent();
    for (uint32_t i = 1; i < passes_; ++i) {
      const bool last = i + 1 == passes_;
      if (last) {
        canvas_.begin(cmd, {{0.0f, 0.0f, 0.0f, 1.0f}});
      } else {
        begin_chain_pass(cmd, i % 2);
      }
      // Alternate axes: two passes make one separable 2D blur.
      const RttPush push{
          {i % 2 ? 1.0f / float(extent.width) : 0.0f, i % 2 ? 0.0f : 1.0f / float(extent.height)},
          time,
          0.15f};
      draw(cmd, last ? filter_to_canvas_.get() : filter_.get(), sets_[(i - 1) % 2], push);
      vkCmdEndRenderPass(cmd);
    }
  }

 private:
  void begin_chain_pass(VkCommandBuffer cmd, uint32_t image) const {
    VkRenderPassBeginInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    info.renderPass = pass_.get();
    info.framebuffer = framebuffers_[image].get();
    info.renderArea = {{0, 0}, canvas_.extent()};
    vkCmdBeginRenderPass(cmd, &info, VK_SUBPASS_CONTENTS_INLINE);
    set_viewport(cmd, canvas_.extent());
  }

  void draw(VkCommandBuffer cmd, VkPipeline pipeline, VkDescriptorSet source,
            const RttPush& push) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (source) {
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), 0, 1, &source, 0,
                              nullptr);
    }
    vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push), &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }

  const Canvas& canvas_;
  uint32_t passes_;
  RenderPass pass_;
  std::array<ImageResource, 2> images_;
  std::array<Framebuffer, 2> framebuffers_;  // destroyed before the images and the pass
  Sampler sampler_;
  DescriptorSetLayout set_layout_;
  DescriptorPool pool_;  // frees sets_
  std::array<VkDescriptorSet, 2> sets_{};
  PipelineLayout layout_;
  Pipeline pattern_;
  Pipeline filter_;
  Pipeline filter_to_canvas_;
};

}  // namespace

std::unique_ptr<Scene> make_rtt_scene(const Context& context, const Canvas& canvas,
                                      const SceneOptions& options) {
  const uint32_t passes = options.count("passes", 64);
  if (passes < 2) fail("scene rtt: passes must be at least 2 (a pattern pass and a filter pass)");
  return std::make_unique<RttScene>(context, canvas, passes);
}

}  // namespace vkbench
