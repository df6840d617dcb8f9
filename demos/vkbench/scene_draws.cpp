// draws: many small draws per frame, each with its own push constants. Through
// a forwarding layer this measures the cost of one command, not of pixels.
#include <cmath>
#include <cstdint>

#include "draws_frag.h"
#include "draws_vert.h"
#include "pipeline.h"
#include "scene.h"

namespace vkbench {
namespace {

struct DrawPush {
  float rect[4];  // centre x, centre y, depth, half size
  float colour[4];
};

class DrawsScene : public Scene {
 public:
  DrawsScene(const Context& context, const Canvas& canvas, uint32_t draws)
      : canvas_(canvas), draws_(draws) {
    VkDevice device = context.device();
    layout_ =
        make_pipeline_layout(device, VK_NULL_HANDLE, sizeof(DrawPush), VK_SHADER_STAGE_VERTEX_BIT);
    GraphicsDesc desc{spirv(draws_vert), spirv(draws_frag), layout_.get(), canvas.render_pass()};
    desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    desc.depth_test = true;
    pipeline_ = make_graphics_pipeline(device, desc);
    columns_ = uint32_t(std::ceil(std::sqrt(double(draws))));
  }

  void record(VkCommandBuffer cmd, uint32_t, uint64_t frame) override {
    canvas_.begin(cmd, {{0.05f, 0.05f, 0.12f, 1.0f}});
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
    const float cell = 2.0f / float(columns_);
    for (uint32_t i = 0; i < draws_; ++i) {
      const DrawPush push = place(i, frame, cell);
      vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(push), &push);
      vkCmdDraw(cmd, 4, 1, 0, 0);
    }
    vkCmdEndRenderPass(cmd);
  }

 private:
  // Quads on a grid, each circling its cell and overlapping its neighbours,
  // at depths that make the depth test decide which shows.
  DrawPush place(uint32_t i, uint64_t frame, float cell) const {
    const float phase = float(frame % 3600) * 0.05f + float(i) * 0.37f;
    const float x = -1.0f + (float(i % columns_) + 0.5f) * cell + 0.3f * cell * std::cos(phase);
    const float y = -1.0f + (float(i / columns_) + 0.5f) * cell + 0.3f * cell * std::sin(phase);
    const float depth = float(i % 101) / 101.0f;
    return {{x, y, depth, 0.6f * cell},
            {0.5f + 0.5f * std::sin(phase), 0.5f + 0.5f * std::sin(phase + 2.1f),
             0.5f + 0.5f * std::sin(phase + 4.2f), 1.0f}};
  }

  const Canvas& canvas_;
  uint32_t draws_;
  uint32_t columns_ = 1;
  PipelineLayout layout_;  // outlives the pipeline made with it
  Pipeline pipeline_;
};

}  // namespace

std::unique_ptr<Scene> make_draws_scene(const Context& context, const Canvas& canvas,
                                        const SceneOptions& options) {
  return std::make_unique<DrawsScene>(context, canvas, options.count("draws", 1000000));
}

}  // namespace vkbench
