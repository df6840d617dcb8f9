// What the Vulkan misuse tests of extensions share: an extension's command
// looked up on the device, and a pipeline of feedback.vert alone for
// dynamic rendering without attachments.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdlib>

#include "feedback_vert.h"
#include "vk_objects.h"

namespace guesttest {

template <typename Fn>
inline Fn device_command(VkDevice device, const char* name) {
  auto fn = reinterpret_cast<Fn>(vkGetDeviceProcAddr(device, name));
  if (!fn) std::exit(7);  // the extension's command is not offered
  return fn;
}

// The vertex stage of feedback.vert.
inline VkPipelineShaderStageCreateInfo feedback_stage(VkDevice device) {
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = sizeof feedback_vert;
  module_info.pCode = feedback_vert;
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
  stage.pName = "main";
  vkCreateShaderModule(device, &module_info, nullptr, &stage.module);
  return stage;
}

// The fixed states of a pipeline of points whose rasterization is
// discarded, so that it needs no fragment stage and no attachments.
struct DiscardedPoints {
  DiscardedPoints() {
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    raster.rasterizerDiscardEnable = VK_TRUE;
    raster.lineWidth = 1;
  }
  // Points `info` at these states.
  void set_in(VkGraphicsPipelineCreateInfo& info) const {
    info.pVertexInputState = &input;
    info.pInputAssemblyState = &assembly;
    info.pRasterizationState = &raster;
  }

  VkPipelineVertexInputStateCreateInfo input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
};

// A pipeline of feedback.vert alone, rasterization discarded, for dynamic
// rendering without attachments; of `vertex_input` where given.
inline VkPipeline feedback_pipeline(VkDevice device, const VkPipelineVertexInputStateCreateInfo* vertex_input = nullptr) {
  const VkPipelineShaderStageCreateInfo stage = feedback_stage(device);
  const DiscardedPoints states;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = 1;
  info.pStages = &stage;
  states.set_in(info);
  if (vertex_input) info.pVertexInputState = vertex_input;
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  vkCreatePipelineLayout(device, &layout_info, nullptr, &info.layout);
  VkPipeline pipeline = VK_NULL_HANDLE;
  vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  return pipeline;
}

// Recording inside dynamic rendering of no attachments, the feedback
// pipeline bound.
inline VkCommandBuffer rendering_buffer(VkDevice device) {
  VkCommandBuffer cb = recording_buffer(device);
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea.extent = {16, 16};
  rendering.layerCount = 1;
  vkCmdBeginRendering(cb, &rendering);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, feedback_pipeline(device));
  return cb;
}

inline void end_rendering_and_submit(VkDevice device, VkCommandBuffer cb) {
  vkCmdEndRendering(cb);
  end_and_submit(device, cb);
}

}  // namespace guesttest
