// texture: streams a new texture every frame, as video players and UI
// toolkits do: the CPU writes texels into a mapped staging buffer, the
// device copies them into a sampled image, and a quad shows it.
#include <array>
#include <cstdint>

#include "descriptors.h"
#include "frames.h"
#include "fullscreen_vert.h"
#include "pipeline.h"
#include "resources.h"
#include "scene.h"
#include "texture_frag.h"

namespace vkbench {
namespace {

class TextureScene : public Scene {
 public:
  TextureScene(const Context& context, const Canvas& canvas, uint32_t size)
      : context_(context), canvas_(canvas), size_(size) {
    VkDevice device = context.device();
    image_ = create_image(context, VK_FORMAT_R8G8B8A8_UNORM, {size, size},
                          VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                          VK_IMAGE_ASPECT_COLOR_BIT);
    // One staging buffer per frame in flight: the CPU fills one while the
    // device may still copy from the other.
    for (BufferResource& staging : staging_) {
      staging = create_buffer(context, VkDeviceSize(size) * size * 4,
                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT, Access::kHostWrite);
    }
    sampler_ = make_sampler(device, VK_FILTER_LINEAR);
    set_layout_ = make_set_layout(
        device, {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}});
    pool_ = make_descriptor_pool(device, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1);
    set_ = allocate_set(device, pool_.get(), set_layout_.get());
    write_image(device, set_, 0, image_.view.get(), sampler_.get());
    layout_ = make_pipeline_layout(device, set_layout_.get(), 0, 0);
    pipeline_ = make_graphics_pipeline(
        device, {spirv(fullscreen_vert), spirv(texture_frag), layout_.get(), canvas.render_pass()});
  }

  void record(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) override {
    const BufferResource& staging = staging_[slot];
    fill(static_cast<uint32_t*>(staging.mapped), frame);
    staging.flush(context_);
    upload(cmd, staging.buffer.get());
    canvas_.draw_full_screen(cmd, pipeline_.get(), layout_.get(), set_);
  }

 private:
  // A moving pattern of RGBA8 texels, every texel new each frame.
  void fill(uint32_t* texels, uint64_t frame) const {
    const uint32_t shift = uint32_t(frame * 3);
    for (uint32_t y = 0; y < size_; ++y) {
      uint32_t* row = texels + size_t(y) * size_;
      for (uint32_t x = 0; x < size_; ++x) {
        const uint32_t r = (x + shift) & 0xff;
        const uint32_t g = (y * 2 + shift) & 0xff;
        const uint32_t b = ((x ^ y) + shift * 2) & 0xff;
        row[x] = r | g << 8 | b << 16 | 0xffu << 24;
      }
    }
  }

  void upload(VkCommandBuffer cmd, VkBuffer staging) const {
    VkImage image = image_.image.get();
    // The old contents are not kept: the previous frame's draw only has to finish reading.
    image_barrier(cmd, image, {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0},
                  {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_WRITE_BIT});
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {size_, size_, 1};
    vkCmdCopyBufferToImage(cmd, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    image_barrier(cmd, image,
                  {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_WRITE_BIT},
                  {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT});
  }

  const Context& context_;
  const Canvas& canvas_;
  uint32_t size_;
  ImageResource image_;
  std::array<BufferResource, kMaxFramesInFlight> staging_;  // one per slot
  Sampler sampler_;
  DescriptorSetLayout set_layout_;
  DescriptorPool pool_;  // frees set_
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  PipelineLayout layout_;
  Pipeline pipeline_;
};

}  // namespace

std::unique_ptr<Scene> make_texture_scene(const Context& context, const Canvas& canvas,
                                          const SceneOptions& options) {
  const uint32_t max = context.properties().limits.maxImageDimension2D;
  return std::make_unique<TextureScene>(context, canvas, options.count("size", max));
}

}  // namespace vkbench
