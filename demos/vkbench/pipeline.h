// Render passes and pipelines. Viewport and scissor are dynamic, so one
// pipeline serves any size of target.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

#include "handle.h"
#include "resources.h"

namespace vkbench {

// A SPIR-V module compiled into the program at build time.
struct SpirV {
  const uint32_t* code;
  size_t bytes;
};

template <size_t N>
SpirV spirv(const uint32_t (&code)[N]) {
  return {code, sizeof(code)};
}

// One subpass with a colour attachment and an optional depth attachment
// (cleared, not stored). The dependencies order the pass after the colour
// image's previous use in `colour_before_stage` and before `colour_after`.
struct PassDesc {
  VkFormat colour_format;
  VkAttachmentLoadOp colour_load;
  VkPipelineStageFlags colour_before_stage;
  ImageUse colour_after;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
};

RenderPass make_render_pass(VkDevice device, const PassDesc& desc);

Framebuffer make_framebuffer(VkDevice device, VkRenderPass pass, VkExtent2D extent,
                             VkImageView colour, VkImageView depth = VK_NULL_HANDLE);

// A layout with at most one descriptor set and one push-constant range.
PipelineLayout make_pipeline_layout(VkDevice device, VkDescriptorSetLayout set_layout,
                                    uint32_t push_bytes, VkShaderStageFlags push_stages);

struct GraphicsDesc {
  SpirV vertex;
  SpirV fragment;
  VkPipelineLayout layout;
  VkRenderPass render_pass;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool depth_test = false;
};

Pipeline make_graphics_pipeline(VkDevice device, const GraphicsDesc& desc);
Pipeline make_compute_pipeline(VkDevice device, SpirV shader, VkPipelineLayout layout);

// Sets the viewport and scissor to the whole of `extent`.
void set_viewport(VkCommandBuffer cmd, VkExtent2D extent);

}  // namespace vkbench
