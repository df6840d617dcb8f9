#include "vk/pipeline_libraries.h"

#include <string>

#include "vk/chain.h"
#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

const VkPipelineLibraryCreateInfoKHR* linked_libraries(const VkGraphicsPipelineCreateInfo& info) {
  auto* libraries = reinterpret_cast<const VkPipelineLibraryCreateInfoKHR*>(
      find_in_chain(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR));
  return libraries && libraries->libraryCount ? libraries : nullptr;
}

// VkGraphicsPipelineLibraryCreateInfoEXT: "if omitted, and the pipeline is
// or links a library, as if flags is 0; otherwise a complete pipeline".
uint32_t own_pipeline_parts(const VkGraphicsPipelineCreateInfo& info) {
  auto* parts = reinterpret_cast<const VkGraphicsPipelineLibraryCreateInfoEXT*>(
      find_in_chain(info.pNext, VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT));
  if (parts) return parts->flags & kAllPipelineParts;
  return is_pipeline_library(info) || linked_libraries(info) ? 0 : kAllPipelineParts;
}

// A pipeline whose pre-rasterization part discards every primitive, not
// as dynamic state, needs no fragment parts (Vulkan 1.3, 10.2.2 "Graphics
// Pipeline Library").
bool discards_all(const VkGraphicsPipelineCreateInfo& info) {
  const VkPipelineRasterizationStateCreateInfo* raster = info.pRasterizationState;
  if (!raster || !raster->rasterizerDiscardEnable) return false;
  const VkPipelineDynamicStateCreateInfo* dynamic = info.pDynamicState;
  for (uint32_t i = 0; dynamic && i < dynamic->dynamicStateCount; ++i)
    if (as_number(dynamic->pDynamicStates[i]) == VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE) return false;
  return true;
}

// The valid usage of VkGraphicsPipelineCreateInfo with libraries: each
// linked library is a graphics library of the device, no part comes twice,
// a pipeline that is no library has every part it needs, a library states
// at least one part, and libraries' shaders are linked under a layout
// whose sets are the ones they were checked against.
wire::Status VkHandler::check_pipeline_parts(uint64_t device, const VkGraphicsPipelineCreateInfo& info) const {
  const uint32_t own = own_pipeline_parts(info);
  if (is_pipeline_library(info) && own == 0) return refused("vkCreateGraphicsPipelines", "of a library of no part");
  uint32_t parts = own;
  bool discards = (own & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) && discards_all(info);
  const VkPipelineLibraryCreateInfoKHR* libraries = linked_libraries(info);
  for (uint32_t i = 0; libraries && i < libraries->libraryCount; ++i) {
    const uint64_t library = raw_handle(libraries->pLibraries[i]);
    auto it = pipelines_.find(library);
    if (it == pipelines_.end() || it->second.device != device || !it->second.library_parts)
      return refused("vkCreateGraphicsPipelines", "linking a pipeline that is not a graphics library of the device");
    if (it->second.library_parts & parts)
      return refused("vkCreateGraphicsPipelines", "of a part twice, its own or its libraries'");
    parts |= it->second.library_parts;
    discards |= it->second.discards;
    if (info.layout && (it->second.library_parts & kShaderParts))
      WIRE_TRY(shaders_.check_linked_layout(raw_handle(info.layout), library));
  }
  const uint32_t needed = discards ? kAllPipelineParts & ~kFragmentParts : kAllPipelineParts;
  if (!is_pipeline_library(info) && (parts & needed) != needed)
    return refused("vkCreateGraphicsPipelines", "of a pipeline missing parts that none of its libraries has");
  return {};
}

}  // namespace host::vk
