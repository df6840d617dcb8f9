// The commands of the extensions Conduit carries, with values past what
// they name or allow: the host refuses each before the driver sees it, and
// only the program's Vulkan is lost. Each class has a control in the rules
// that the device survives.
#include <cstdint>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;

constexpr VkDeviceSize kSmall = 4096;

template <typename Fn>
Fn device_command(VkDevice device, const char* name) {
  auto fn = reinterpret_cast<Fn>(vkGetDeviceProcAddr(device, name));
  if (!fn) std::exit(7);  // the extension's command is not offered
  return fn;
}

// VK_EXT_conditional_rendering: the predicate is a word inside its buffer.

void begin_conditional_rendering_at(VkDevice device, VkDeviceSize offset) {
  auto begin = device_command<PFN_vkCmdBeginConditionalRenderingEXT>(device, "vkCmdBeginConditionalRenderingEXT");
  auto end = device_command<PFN_vkCmdEndConditionalRenderingEXT>(device, "vkCmdEndConditionalRenderingEXT");
  VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
  info.buffer = buffer_of(device, kSmall);
  info.offset = offset;
  VkCommandBuffer cb = recording_buffer(device);
  begin(cb, &info);
  end(cb);
  end_and_submit(device, cb);
}

const std::vector<const char*> kConditional = {VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME};

TEST(VulkanExtensionRanges, ConditionalRenderingOnItsBuffersLastWordRuns) {
  expect_accepted_with(kConditional, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    begin_conditional_rendering_at(device, kSmall - 4);
  });
}

TEST(VulkanExtensionRanges, ConditionalRenderingPastItsBuffer) {
  expect_refused_with(kConditional, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    begin_conditional_rendering_at(device, kSmall);
  });
}

TEST(VulkanExtensionRanges, ConditionalRenderingAtAnOffsetNotOfFour) {
  expect_refused_with(kConditional, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    begin_conditional_rendering_at(device, 2);
  });
}

// VK_EXT_extended_dynamic_state2 and VK_EXT_line_rasterization: values
// drivers index their tables or size their patches by.

const std::vector<const char*> kDynamicState = {VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME,
                                                VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME};

void set_dynamic_state(VkDevice device, uint32_t logic_op, uint32_t patch_points, uint32_t stipple_factor) {
  VkCommandBuffer cb = recording_buffer(device);
  device_command<PFN_vkCmdSetLogicOpEXT>(device, "vkCmdSetLogicOpEXT")(cb, static_cast<VkLogicOp>(logic_op));
  device_command<PFN_vkCmdSetPatchControlPointsEXT>(device, "vkCmdSetPatchControlPointsEXT")(cb, patch_points);
  device_command<PFN_vkCmdSetLineStippleEXT>(device, "vkCmdSetLineStippleEXT")(cb, stipple_factor, 0xf0f0);
  end_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, DynamicStateOfItsTypesRuns) {
  expect_accepted_with(kDynamicState, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_dynamic_state(device, VK_LOGIC_OP_SET, 32, 256);
  });
}

TEST(VulkanExtensionRanges, LogicOpPastItsEnum) {
  expect_refused_with(kDynamicState, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_dynamic_state(device, 0x7fffffff, 3, 1);
  });
}

TEST(VulkanExtensionRanges, PatchOfMoreControlPointsThanAnyDevice) {
  expect_refused_with(kDynamicState, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_dynamic_state(device, VK_LOGIC_OP_COPY, 100000, 1);
  });
}

TEST(VulkanExtensionRanges, PatchOfNoControlPoints) {
  expect_refused_with(kDynamicState, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_dynamic_state(device, VK_LOGIC_OP_COPY, 0, 1);
  });
}

TEST(VulkanExtensionRanges, LineStippleFactorPastTheSpecsMost) {
  expect_refused_with(kDynamicState, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_dynamic_state(device, VK_LOGIC_OP_COPY, 3, 257);
  });
}

// VK_EXT_index_type_uint8: bytes of indices are bound like the others.

const std::vector<const char*> kUint8 = {VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME};

TEST(VulkanExtensionRanges, IndexBufferOfBytesRuns) {
  expect_accepted_with(kUint8, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = recording_buffer(device);
    vkCmdBindIndexBuffer(cb, buffer_of(device, kSmall), kSmall - 1, VK_INDEX_TYPE_UINT8_EXT);
    end_and_submit(device, cb);
  });
}

TEST(VulkanExtensionRanges, IndexBufferOfBytesPastItsEnd) {
  expect_refused_with(kUint8, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdBindIndexBuffer(recording_buffer(device), buffer_of(device, kSmall), kSmall, VK_INDEX_TYPE_UINT8_EXT);
  });
}

}  // namespace
