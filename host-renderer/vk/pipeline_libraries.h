// VK_EXT_graphics_pipeline_library: a graphics pipeline made in parts
// (vertex input, pre-rasterization shaders, fragment shader, fragment
// output), each a library, then linked. Drivers merge the libraries' state
// and shaders as given: a part named twice, a linked pipeline missing a
// part, a library bound for drawing, or a library's shaders linked under a
// layout other than the one they were checked against reach the driver
// unchecked otherwise (pipeline_libraries.cpp).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace host::vk {

constexpr uint32_t kAllPipelineParts = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
                                       VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
                                       VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                                       VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;
constexpr uint32_t kShaderParts = VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
                                  VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;

constexpr uint32_t kFragmentParts = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                                    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

// Whether its rasterization state discards every primitive, not as dynamic state.
bool discards_all(const VkGraphicsPipelineCreateInfo& info);

// The parts a graphics pipeline's own create info states (the spec's
// defaults: all of them for a pipeline that neither is nor links a library).
uint32_t own_pipeline_parts(const VkGraphicsPipelineCreateInfo& info);

// The libraries it links, or null.
const VkPipelineLibraryCreateInfoKHR* linked_libraries(const VkGraphicsPipelineCreateInfo& info);

inline bool is_pipeline_library(const VkGraphicsPipelineCreateInfo& info) {
  return (info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) != 0;
}

}  // namespace host::vk
