#include "pipeline.h"

#include "check.h"

namespace vkbench {
namespace {

ShaderModule make_shader(VkDevice device, SpirV spirv) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = spirv.bytes;
  info.pCode = spirv.code;
  VkShaderModule module;
  check(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  return ShaderModule(device, module);
}

VkPipelineShaderStageCreateInfo stage(VkShaderStageFlagBits bit, VkShaderModule module) {
  VkPipelineShaderStageCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage = bit;
  info.module = module;
  info.pName = "main";
  return info;
}

}  // namespace

RenderPass make_render_pass(VkDevice device, const PassDesc& desc) {
  const bool depth = desc.depth_format != VK_FORMAT_UNDEFINED;
  VkAttachmentDescription attachments[2] = {};
  attachments[0].format = desc.colour_format;
  attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].loadOp = desc.colour_load;
  attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  // Every pass redraws the whole image: the previous contents never matter.
  attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachments[0].finalLayout = desc.colour_after.layout;
  attachments[1] = attachments[0];
  attachments[1].format = desc.depth_format;
  attachments[1].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  VkAttachmentReference colour_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &colour_ref;
  subpass.pDepthStencilAttachment = depth ? &depth_ref : nullptr;

  const VkPipelineStageFlags depth_stages =
      depth ? VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT
            : 0;
  const VkAccessFlags depth_write = depth ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT : 0;
  VkSubpassDependency deps[2] = {};
  // Before: the image's last reader (write after read) and the previous
  // frame's attachment writes (write after write, colour and depth).
  deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  deps[0].dstSubpass = 0;
  deps[0].srcStageMask =
      desc.colour_before_stage | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | depth_stages;
  deps[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | depth_write;
  deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | depth_stages;
  deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                          (depth ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | depth_write : 0);
  // After: the colour attachment's next reader.
  deps[1].srcSubpass = 0;
  deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  deps[1].dstStageMask = desc.colour_after.stage;
  deps[1].dstAccessMask = desc.colour_after.access;

  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = depth ? 2 : 1;
  info.pAttachments = attachments;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 2;
  info.pDependencies = deps;
  VkRenderPass pass;
  check(vkCreateRenderPass(device, &info, nullptr, &pass), "vkCreateRenderPass");
  return RenderPass(device, pass);
}

Framebuffer make_framebuffer(VkDevice device, VkRenderPass pass, VkExtent2D extent,
                             VkImageView colour, VkImageView depth) {
  VkImageView views[] = {colour, depth};
  VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  info.renderPass = pass;
  info.attachmentCount = depth ? 2 : 1;
  info.pAttachments = views;
  info.width = extent.width;
  info.height = extent.height;
  info.layers = 1;
  VkFramebuffer framebuffer;
  check(vkCreateFramebuffer(device, &info, nullptr, &framebuffer), "vkCreateFramebuffer");
  return Framebuffer(device, framebuffer);
}

PipelineLayout make_pipeline_layout(VkDevice device, VkDescriptorSetLayout set_layout,
                                    uint32_t push_bytes, VkShaderStageFlags push_stages) {
  VkPushConstantRange range{push_stages, 0, push_bytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = set_layout ? 1 : 0;
  info.pSetLayouts = &set_layout;
  info.pushConstantRangeCount = push_bytes ? 1 : 0;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  check(vkCreatePipelineLayout(device, &info, nullptr, &layout), "vkCreatePipelineLayout");
  return PipelineLayout(device, layout);
}

Pipeline make_graphics_pipeline(VkDevice device, const GraphicsDesc& desc) {
  ShaderModule vertex = make_shader(device, desc.vertex);
  ShaderModule fragment = make_shader(device, desc.fragment);
  VkPipelineShaderStageCreateInfo stages[] = {stage(VK_SHADER_STAGE_VERTEX_BIT, vertex.get()),
                                              stage(VK_SHADER_STAGE_FRAGMENT_BIT, fragment.get())};
  // Vertices come from gl_VertexIndex: no vertex buffers.
  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = desc.topology;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = desc.depth_test;
  depth.depthWriteEnable = desc.depth_test;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                    VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = desc.layout;
  info.renderPass = desc.render_pass;
  VkPipeline pipeline;
  check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
        "vkCreateGraphicsPipelines");
  return Pipeline(device, pipeline);
}

Pipeline make_compute_pipeline(VkDevice device, SpirV shader, VkPipelineLayout layout) {
  ShaderModule module = make_shader(device, shader);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = stage(VK_SHADER_STAGE_COMPUTE_BIT, module.get());
  info.layout = layout;
  VkPipeline pipeline;
  check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
        "vkCreateComputePipelines");
  return Pipeline(device, pipeline);
}

void set_viewport(VkCommandBuffer cmd, VkExtent2D extent) {
  VkViewport viewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
  VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}

}  // namespace vkbench
