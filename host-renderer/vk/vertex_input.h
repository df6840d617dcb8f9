// Vertex bindings and attributes, as a pipeline states them or
// vkCmdSetVertexInputEXT sets them (VK_EXT_vertex_input_dynamic_state).
// Mesa keeps them in arrays of the device's limits indexed by binding
// number and location, and looks neither up: every number is checked
// against the device's limits and against the bindings named beside it.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "wire/result.h"

namespace host::vk {

struct VertexInputLimits {
  uint32_t bindings = 0;          // maxVertexInputBindings
  uint32_t attributes = 0;        // maxVertexInputAttributes
  uint32_t attribute_offset = 0;  // maxVertexInputAttributeOffset
  uint32_t binding_stride = 0;    // maxVertexInputBindingStride
  uint32_t divisor = 0;           // maxVertexAttribDivisor; 0 without VK_EXT_vertex_attribute_divisor
};

// A pipeline's state, unless its vertex input is dynamic.
wire::Status check_pipeline_vertex_input(const VkGraphicsPipelineCreateInfo& info, const VertexInputLimits& limits);
// vkCmdSetVertexInputEXT's arguments.
wire::Status check_set_vertex_input(const void* args, const VertexInputLimits& limits);

}  // namespace host::vk
