// VK_EXT_extended_dynamic_state3's commands (Vulkan 1.3 with the
// extension, section 10.11 "Dynamic State"): each runs only on a device
// that enabled its feature; attachments, streams and viewports within the
// device's limits (drivers keep their state in arrays of them); sample
// counts of one bit of 1 to 64 (one sizes the mask read); polygon modes
// and blend operations of the core values drivers convert by tables.
// Enumerated values of other types are refused by the generated codec.
#include "vk/dynamic_state3.h"

#include <cstddef>

#include "vk/chain.h"
#include "vk/refusal.h"
#include "vk/resource_shapes.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

using Features = VkPhysicalDeviceExtendedDynamicState3FeaturesEXT;

// A feature's bit: its place among the structure's VkBool32 members.
constexpr int bit_of(size_t offset) {
  return static_cast<int>((offset - offsetof(Features, extendedDynamicState3TessellationDomainOrigin)) /
                          sizeof(VkBool32));
}

// Every command is vkCmdSet<Name><vendor>, allowed by extendedDynamicState3<Name>.
#define DYNAMIC_STATE3(name, vendor) \
  case VkOp::vkCmdSet##name##vendor: \
    return bit_of(offsetof(Features, extendedDynamicState3##name));

bool one_sample_count(uint32_t samples) {
  return samples && samples <= VK_SAMPLE_COUNT_64_BIT && (samples & (samples - 1)) == 0;
}

}  // namespace

int dynamic_state3_feature(uint32_t opcode) {
  switch (static_cast<VkOp>(opcode)) {
    DYNAMIC_STATE3(TessellationDomainOrigin, EXT)
    DYNAMIC_STATE3(DepthClampEnable, EXT)
    DYNAMIC_STATE3(PolygonMode, EXT)
    DYNAMIC_STATE3(RasterizationSamples, EXT)
    DYNAMIC_STATE3(SampleMask, EXT)
    DYNAMIC_STATE3(AlphaToCoverageEnable, EXT)
    DYNAMIC_STATE3(AlphaToOneEnable, EXT)
    DYNAMIC_STATE3(LogicOpEnable, EXT)
    DYNAMIC_STATE3(ColorBlendEnable, EXT)
    DYNAMIC_STATE3(ColorBlendEquation, EXT)
    DYNAMIC_STATE3(ColorWriteMask, EXT)
    DYNAMIC_STATE3(RasterizationStream, EXT)
    DYNAMIC_STATE3(ConservativeRasterizationMode, EXT)
    DYNAMIC_STATE3(ExtraPrimitiveOverestimationSize, EXT)
    DYNAMIC_STATE3(DepthClipEnable, EXT)
    DYNAMIC_STATE3(SampleLocationsEnable, EXT)
    DYNAMIC_STATE3(ColorBlendAdvanced, EXT)
    DYNAMIC_STATE3(ProvokingVertexMode, EXT)
    DYNAMIC_STATE3(LineRasterizationMode, EXT)
    DYNAMIC_STATE3(LineStippleEnable, EXT)
    DYNAMIC_STATE3(DepthClipNegativeOneToOne, EXT)
    DYNAMIC_STATE3(ViewportWScalingEnable, NV)
    DYNAMIC_STATE3(ViewportSwizzle, NV)
    DYNAMIC_STATE3(CoverageToColorEnable, NV)
    DYNAMIC_STATE3(CoverageToColorLocation, NV)
    DYNAMIC_STATE3(CoverageModulationMode, NV)
    DYNAMIC_STATE3(CoverageModulationTableEnable, NV)
    DYNAMIC_STATE3(CoverageModulationTable, NV)
    DYNAMIC_STATE3(ShadingRateImageEnable, NV)
    DYNAMIC_STATE3(RepresentativeFragmentTestEnable, NV)
    DYNAMIC_STATE3(CoverageReductionMode, NV)
    default:
      return -1;
  }
}

#undef DYNAMIC_STATE3

uint32_t dynamic_state3_features(const void* next) {
  auto* f = reinterpret_cast<const Features*>(
      find_in_chain(next, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT));
  if (!f) return 0;
  const auto* flags = &f->extendedDynamicState3TessellationDomainOrigin;
  const int count = bit_of(sizeof(Features));
  static_assert(bit_of(sizeof(Features)) <= 32, "a bit per feature");
  uint32_t enabled = 0;
  for (int i = 0; i < count; ++i) enabled |= (flags[i] ? 1u : 0u) << i;
  return enabled;
}

// Values drivers convert by tables of the core values, and sample counts.
wire::Status ResourceShapes::check_dynamic_state3_values(uint32_t opcode, const void* args) const {
  const char* command = command_desc(opcode)->name;
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdSetPolygonModeEXT:
      if (as_number(static_cast<const VkArgs_vkCmdSetPolygonModeEXT*>(args)->polygonMode) > VK_POLYGON_MODE_POINT)
        return refused(command, "of a polygon mode not carried");
      return {};
    case VkOp::vkCmdSetRasterizationSamplesEXT:
      if (!one_sample_count(as_number(static_cast<const VkArgs_vkCmdSetRasterizationSamplesEXT*>(args)->rasterizationSamples)))
        return refused(command, "of a value that is not one sample count");
      return {};
    case VkOp::vkCmdSetSampleMaskEXT:
      if (!one_sample_count(as_number(static_cast<const VkArgs_vkCmdSetSampleMaskEXT*>(args)->samples)))
        return refused(command, "of a value that is not one sample count");
      return {};
    case VkOp::vkCmdSetColorBlendEquationEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetColorBlendEquationEXT*>(args);
      for (uint32_t i = 0; i < a.attachmentCount; ++i)
        if (as_number(a.pColorBlendEquations[i].colorBlendOp) > VK_BLEND_OP_MAX ||
            as_number(a.pColorBlendEquations[i].alphaBlendOp) > VK_BLEND_OP_MAX)
          return refused(command, "of a blend operation not carried");
      return {};
    }
    default:
      return {};
  }
}

// Whether the device enabled the command's feature, and its attachments,
// streams and viewports within the device's limits.
wire::Status VkHandler::check_dynamic_state3(const Recording& r, uint32_t opcode, const void* args) {
  const char* command = command_desc(opcode)->name;
  if (!(r.limits.dynamic_state3 >> dynamic_state3_feature(opcode) & 1))
    return refused(command, "on a device that did not enable its feature");
  const Recording::Limits& room = r.limits;
  bool within = true;
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdSetColorBlendEnableEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetColorBlendEnableEXT*>(args);
      within = fits(a.firstAttachment, a.attachmentCount, room.color_attachments);
      break;
    }
    case VkOp::vkCmdSetColorBlendEquationEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetColorBlendEquationEXT*>(args);
      within = fits(a.firstAttachment, a.attachmentCount, room.color_attachments);
      break;
    }
    case VkOp::vkCmdSetColorWriteMaskEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetColorWriteMaskEXT*>(args);
      within = fits(a.firstAttachment, a.attachmentCount, room.color_attachments);
      break;
    }
    case VkOp::vkCmdSetColorBlendAdvancedEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetColorBlendAdvancedEXT*>(args);
      within = fits(a.firstAttachment, a.attachmentCount, room.color_attachments);
      break;
    }
    case VkOp::vkCmdSetRasterizationStreamEXT:
      within = static_cast<const VkArgs_vkCmdSetRasterizationStreamEXT*>(args)->rasterizationStream <
               room.feedback_streams;
      break;
    case VkOp::vkCmdSetViewportSwizzleNV: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetViewportSwizzleNV*>(args);
      within = fits(a.firstViewport, a.viewportCount, room.viewports);
      break;
    }
    default:
      break;
  }
  if (!within) return refused(command, "of attachments, streams or viewports past the device's limits");
  return {};
}

}  // namespace host::vk
