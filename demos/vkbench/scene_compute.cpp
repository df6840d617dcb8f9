// compute: a compute shader reads and writes a storage buffer every frame,
// then a full-screen draw shows the buffer so the frame is the result.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "compute_comp.h"
#include "compute_show_frag.h"
#include "descriptors.h"
#include "fullscreen_vert.h"
#include "pipeline.h"
#include "resources.h"
#include "scene.h"

namespace vkbench {
namespace {

constexpr uint32_t kGroupSize = 256;  // compute.comp's local_size_x

struct ComputePush {
  uint32_t count;
  uint32_t columns;
  float time;
};

constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

class ComputeScene : public Scene {
 public:
  ComputeScene(const Context& context, const Canvas& canvas, uint32_t elements)
      : canvas_(canvas), elements_(elements) {
    VkDevice device = context.device();
    const VkDeviceSize bytes = VkDeviceSize(elements) * sizeof(float);
    values_ = create_buffer(context, bytes,
                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            Access::kDevice);
    clear_values(context);
    // One set and one layout for both pipelines, so the push constants and
    // the set stay valid across the switch from compute to graphics.
    set_layout_ = make_set_layout(device, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kStages}});
    pool_ = make_descriptor_pool(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1);
    set_ = allocate_set(device, pool_.get(), set_layout_.get());
    write_storage_buffer(device, set_, 0, values_.buffer.get());
    layout_ = make_pipeline_layout(device, set_layout_.get(), sizeof(ComputePush), kStages);
    compute_ = make_compute_pipeline(device, spirv(compute_comp), layout_.get());
    show_ = make_graphics_pipeline(device, {spirv(fullscreen_vert), spirv(compute_show_frag),
                                            layout_.get(), canvas.render_pass()});
    columns_ = uint32_t(std::ceil(std::sqrt(double(elements))));
  }

  void record(VkCommandBuffer cmd, uint32_t, uint64_t frame) override {
    // The previous frame's dispatch wrote and its draw read the buffer.
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(
        cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
    const ComputePush push{elements_, columns_, float(frame % 100000) * 0.05f};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, compute_.get());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set_, 0,
                            nullptr);
    vkCmdPushConstants(cmd, layout_.get(), kStages, 0, sizeof(push), &push);
    vkCmdDispatch(cmd, (elements_ + kGroupSize - 1) / kGroupSize, 1, 1);

    VkBufferMemoryBarrier written{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    written.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    written.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    written.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    written.buffer = values_.buffer.get();
    written.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr, 1, &written, 0,
                         nullptr);

    canvas_.draw_full_screen(cmd, show_.get(), layout_.get(), set_);
  }

 private:
  // The shader reads the values before it writes them: start from zeros.
  void clear_values(const Context& context) {
    context.submit_once([&](VkCommandBuffer cmd) {
      vkCmdFillBuffer(cmd, values_.buffer.get(), 0, VK_WHOLE_SIZE, 0);
      VkMemoryBarrier filled{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      filled.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      filled.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &filled, 0, nullptr, 0,
                           nullptr);
    });
  }

  const Canvas& canvas_;
  uint32_t elements_;
  uint32_t columns_ = 1;
  BufferResource values_;
  DescriptorSetLayout set_layout_;
  DescriptorPool pool_;  // frees set_
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  PipelineLayout layout_;
  Pipeline compute_;
  Pipeline show_;
};

}  // namespace

std::unique_ptr<Scene> make_compute_scene(const Context& context, const Canvas& canvas,
                                          const SceneOptions& options) {
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  // Bounded by one descriptor's range and by one dispatch's group count.
  const uint64_t by_range = limits.maxStorageBufferRange / sizeof(float);
  const uint64_t by_groups = uint64_t(limits.maxComputeWorkGroupCount[0]) * kGroupSize;
  const uint64_t max = std::min<uint64_t>({by_range, by_groups, UINT32_MAX});
  return std::make_unique<ComputeScene>(context, canvas, options.count("elements", uint32_t(max)));
}

}  // namespace vkbench
