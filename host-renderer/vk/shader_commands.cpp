// The commands that make shader modules, descriptor set layouts, pipeline
// layouts and pipelines, checked and noted through ShaderChecks: modules
// before the driver parses them, pipelines before it compiles them.
#include <string>

#include "vk/chain.h"
#include "vk/pipeline_libraries.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using wire::Errc;
using wire::make_error;
using namespace wire::vk;

namespace {

std::span<const uint32_t> code_of(const VkShaderModuleCreateInfo& info) { return {info.pCode, info.codeSize / 4}; }

constexpr uint64_t kPreRasterizationStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT |
                                             VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT | VK_SHADER_STAGE_GEOMETRY_BIT |
                                             VK_SHADER_STAGE_TASK_BIT_EXT | VK_SHADER_STAGE_MESH_BIT_EXT;

// Each stage once and of a part the pipeline states (VUID-VkGraphicsPipelineCreateInfo-pStages-06894/06895/06896),
// the vertex or mesh stage among them where it states the pre-rasterization
// part (-stage-02096): drivers keep one shader per stage and build from the first.
wire::Status check_graphics_stages(const VkGraphicsPipelineCreateInfo& info, uint32_t parts) {
  uint64_t allowed = 0;
  if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) allowed |= kPreRasterizationStages;
  if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) allowed |= VK_SHADER_STAGE_FRAGMENT_BIT;
  uint64_t seen = 0;
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    const uint64_t bit = as_number(info.pStages[i].stage);
    if ((bit & (bit - 1)) || (seen & bit) || !(bit & allowed))
      return make_error(Errc::kBadValue, "a graphics pipeline with stage " + std::to_string(bit) +
                                             " repeated, not one stage, compute, or of a part it does not state");
    seen |= bit;
  }
  const bool pre_rasterization = parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
  if (pre_rasterization && !(seen & (VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_MESH_BIT_EXT)))
    return make_error(Errc::kBadValue, "a graphics pipeline without a vertex stage");
  return {};
}

// VK_EXT_vertex_attribute_divisor: each divisor names a binding of the
// pipeline's own of the instance rate (VUID-VkVertexInputBindingDivisorDescriptionEXT-binding-01870
// and VUID-VkPipelineVertexInputDivisorStateCreateInfoEXT-...-01871): Mesa's
// pipeline state writes the divisor into its array of bindings at that index.
wire::Status check_vertex_divisors(const VkGraphicsPipelineCreateInfo& info, uint32_t most_bindings) {
  const VkPipelineVertexInputStateCreateInfo* input = info.pVertexInputState;
  if (!input) return {};
  const auto* divisors = reinterpret_cast<const VkPipelineVertexInputDivisorStateCreateInfoEXT*>(
      find_in_chain(input->pNext, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT));
  for (uint32_t i = 0; divisors && i < divisors->vertexBindingDivisorCount; ++i) {
    const uint32_t binding = divisors->pVertexBindingDivisors[i].binding;
    bool per_instance = false;
    for (uint32_t b = 0; b < input->vertexBindingDescriptionCount; ++b)
      per_instance |= input->pVertexBindingDescriptions[b].binding == binding &&
                      as_number(input->pVertexBindingDescriptions[b].inputRate) == VK_VERTEX_INPUT_RATE_INSTANCE;
    if (!per_instance || binding >= most_bindings)
      return make_error(Errc::kBadValue, "a vertex divisor of binding " + std::to_string(binding) +
                                             ", not one of the pipeline's bindings of the instance rate");
  }
  return {};
}

// VK_EXT_color_write_enable: one enable for each blended attachment
// (VUID-VkPipelineColorWriteCreateInfoEXT-attachmentCount-07608); Mesa
// reads one for each.
wire::Status check_color_writes(const VkGraphicsPipelineCreateInfo& info) {
  const VkPipelineColorBlendStateCreateInfo* blend = info.pColorBlendState;
  if (!blend) return {};
  const auto* writes = reinterpret_cast<const VkPipelineColorWriteCreateInfoEXT*>(
      find_in_chain(blend->pNext, VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT));
  if (writes && writes->attachmentCount != blend->attachmentCount)
    return make_error(Errc::kBadValue, "color write enables of another count than the blended attachments");
  return {};
}

// The SPIR-V environment of Vulkan's version on the device (Vulkan 1.3
// appendix "Vulkan Environment for SPIR-V": 1.0 takes SPIR-V 1.0, 1.1 up to
// 1.3, 1.2 up to 1.5, 1.3 up to 1.6).
spv_target_env env_of(uint32_t api_version) {
  switch (std::min(VK_API_VERSION_MINOR(api_version), 3u)) {
    case 0: return SPV_ENV_VULKAN_1_0;
    case 1: return SPV_ENV_VULKAN_1_1;
    case 2: return SPV_ENV_VULKAN_1_2;
    default: return SPV_ENV_VULKAN_1_3;
  }
}

}  // namespace

// What the device's driver takes: its version's SPIR-V, and the block
// layouts it supports (VK_EXT_scalar_block_layout,
// VK_KHR_uniform_buffer_standard_layout, core in 1.2). Asked once a device.
const SpirvTarget& VkHandler::spirv_target(VkDevice device) {
  if (const SpirvTarget* known = shaders_.target(raw_handle(device))) return *known;
  SpirvTarget target;
  auto gpu = device_gpus_.find(device);
  if (gpu != device_gpus_.end()) {
    VkPhysicalDeviceProperties props{};
    dispatch_.vkGetPhysicalDeviceProperties(gpu->second, &props);
    target.env = env_of(props.apiVersion);
    if (VK_API_VERSION_MINOR(props.apiVersion) >= 2) {
      VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
      VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
      dispatch_.vkGetPhysicalDeviceFeatures2(gpu->second, &features);
      target.scalar_block_layout = v12.scalarBlockLayout;
      target.uniform_buffer_standard_layout = v12.uniformBufferStandardLayout;
    }
  }
  shaders_.note_target(raw_handle(device), target);
  return *shaders_.target(raw_handle(device));
}

wire::Status VkHandler::check_shaders(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCreateShaderModule: {
      auto& a = *static_cast<const VkArgs_vkCreateShaderModule*>(args);
      return shaders_.check_module(spirv_target(a.device), code_of(*a.pCreateInfo));
    }
    case VkOp::vkCreateGraphicsPipelines: {
      auto& a = *static_cast<const VkArgs_vkCreateGraphicsPipelines*>(args);
      const SpirvTarget& target = spirv_target(a.device);
      for (uint32_t i = 0; i < a.createInfoCount; ++i) {
        const VkGraphicsPipelineCreateInfo& info = a.pCreateInfos[i];
        const uint32_t parts = own_pipeline_parts(info);
        WIRE_TRY(check_pipeline_parts(raw_handle(a.device), info));
        WIRE_TRY(check_graphics_stages(info, parts));
        const VertexInputLimits& vertex_limits = device_limits_[a.device].vertex_input;
        if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) {
          WIRE_TRY(check_pipeline_vertex_input(info, vertex_limits));
          WIRE_TRY(check_vertex_divisors(info, vertex_limits.bindings));
        }
        if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) WIRE_TRY(check_color_writes(info));
        for (uint32_t s = 0; s < info.stageCount; ++s)
          WIRE_TRY(shaders_.check_stage(target, raw_handle(info.layout), info.pStages[s]));
      }
      return {};
    }
    case VkOp::vkCreateComputePipelines: {
      auto& a = *static_cast<const VkArgs_vkCreateComputePipelines*>(args);
      const SpirvTarget& target = spirv_target(a.device);
      for (uint32_t i = 0; i < a.createInfoCount; ++i) {
        const VkComputePipelineCreateInfo& info = a.pCreateInfos[i];
        if (as_number(info.stage.stage) != VK_SHADER_STAGE_COMPUTE_BIT)
          return make_error(Errc::kBadValue, "a compute pipeline whose stage is not compute");
        WIRE_TRY(shaders_.check_stage(target, raw_handle(info.layout), info.stage));
      }
      return {};
    }
    default:
      return {};
  }
}

void VkHandler::note_shaders(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCreateShaderModule: {
      auto& a = *static_cast<const VkArgs_vkCreateShaderModule*>(args);
      shaders_.note_module(raw_handle(a.device), raw_handle(*a.pShaderModule));
      break;
    }
    case VkOp::vkDestroyShaderModule:
      shaders_.forget_module(raw_handle(static_cast<const VkArgs_vkDestroyShaderModule*>(args)->shaderModule));
      break;
    case VkOp::vkCreateDescriptorSetLayout: {
      auto& a = *static_cast<const VkArgs_vkCreateDescriptorSetLayout*>(args);
      shaders_.note_set_layout(raw_handle(a.device), raw_handle(*a.pSetLayout), *a.pCreateInfo);
      break;
    }
    case VkOp::vkDestroyDescriptorSetLayout:
      shaders_.forget_set_layout(
          raw_handle(static_cast<const VkArgs_vkDestroyDescriptorSetLayout*>(args)->descriptorSetLayout));
      break;
    case VkOp::vkCreatePipelineLayout: {
      auto& a = *static_cast<const VkArgs_vkCreatePipelineLayout*>(args);
      shaders_.note_pipeline_layout(raw_handle(a.device), raw_handle(*a.pPipelineLayout), *a.pCreateInfo);
      break;
    }
    case VkOp::vkDestroyPipelineLayout:
      shaders_.forget_pipeline_layout(
          raw_handle(static_cast<const VkArgs_vkDestroyPipelineLayout*>(args)->pipelineLayout));
      break;
    case VkOp::vkDestroyDevice:
      shaders_.forget_device(raw_handle(static_cast<const VkArgs_vkDestroyDevice*>(args)->device));
      break;
    default:
      break;
  }
}

}  // namespace host::vk
