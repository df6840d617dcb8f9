#include "vk/vertex_input.h"

#include <bitset>
#include <string>

#include "vk/refusal.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// Spec limits are at most 32 bindings and attributes on the drivers we
// know of; a device claiming more is held to this many.
constexpr uint32_t kMostIndexed = 64;

uint32_t divisor_of(const VkVertexInputBindingDescription&) { return 1; }
uint32_t divisor_of(const VkVertexInputBindingDescription2EXT& b) { return b.divisor; }

// VUIDs of VkVertexInputBindingDescription(2EXT), VkVertexInputAttributeDescription(2EXT),
// VkPipelineVertexInputStateCreateInfo and vkCmdSetVertexInputEXT alike.
template <typename Binding, typename Attribute>
wire::Status check_vertex_input(const char* what, const Binding* bindings, uint32_t binding_count,
                                const Attribute* attributes, uint32_t attribute_count, const VertexInputLimits& limits) {
  const uint32_t most_bindings = std::min(limits.bindings, kMostIndexed);
  const uint32_t most_attributes = std::min(limits.attributes, kMostIndexed);
  if (binding_count > most_bindings || attribute_count > most_attributes)
    return refused(what, "of more vertex bindings or attributes than the device has");
  std::bitset<kMostIndexed> bound, located;
  for (uint32_t i = 0; i < binding_count; ++i) {
    const Binding& b = bindings[i];
    if (b.binding >= most_bindings || bound.test(b.binding) || b.stride > limits.binding_stride)
      return refused(what, "of vertex binding " + std::to_string(b.binding) +
                               ": past the device's bindings or stride, or named twice");
    const uint32_t divisor = divisor_of(b);
    const bool per_instance = as_number(b.inputRate) == VK_VERTEX_INPUT_RATE_INSTANCE;
    if (divisor != 1 && (!per_instance || divisor > limits.divisor))
      return refused(what, "of vertex binding " + std::to_string(b.binding) + ": a divisor the device does not allow");
    bound.set(b.binding);
  }
  for (uint32_t i = 0; i < attribute_count; ++i) {
    const Attribute& a = attributes[i];
    if (a.location >= most_attributes || located.test(a.location) || a.binding >= most_bindings ||
        !bound.test(a.binding) || a.offset > limits.attribute_offset)
      return refused(what, "of vertex attribute " + std::to_string(a.location) +
                               ": past the device's attributes or offsets, named twice, or of a binding not described");
    located.set(a.location);
  }
  return {};
}

bool dynamic_vertex_input(const VkGraphicsPipelineCreateInfo& info) {
  const VkPipelineDynamicStateCreateInfo* dynamic = info.pDynamicState;
  for (uint32_t i = 0; dynamic && i < dynamic->dynamicStateCount; ++i)
    if (as_number(dynamic->pDynamicStates[i]) == VK_DYNAMIC_STATE_VERTEX_INPUT_EXT) return true;
  return false;
}

}  // namespace

wire::Status check_pipeline_vertex_input(const VkGraphicsPipelineCreateInfo& info, const VertexInputLimits& limits) {
  const VkPipelineVertexInputStateCreateInfo* input = info.pVertexInputState;
  if (!input || dynamic_vertex_input(info)) return {};
  return check_vertex_input("vkCreateGraphicsPipelines", input->pVertexBindingDescriptions,
                            input->vertexBindingDescriptionCount, input->pVertexAttributeDescriptions,
                            input->vertexAttributeDescriptionCount, limits);
}

wire::Status check_set_vertex_input(const void* args, const VertexInputLimits& limits) {
  const auto& a = *static_cast<const VkArgs_vkCmdSetVertexInputEXT*>(args);
  return check_vertex_input("vkCmdSetVertexInputEXT", a.pVertexBindingDescriptions, a.vertexBindingDescriptionCount,
                            a.pVertexAttributeDescriptions, a.vertexAttributeDescriptionCount, limits);
}

}  // namespace host::vk
