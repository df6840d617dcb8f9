// The commands of the extensions Conduit carries, with values past what
// they name or allow: the host refuses each before the driver sees it, and
// only the program's Vulkan is lost. Each class has a control in the rules
// that the device survives.
#include <cstdint>

#include "feedback_vert.h"
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

// VK_EXT_transform_feedback: bindings and counters within the device's
// limits, ranges inside buffers made for them, streams the device has.

const std::vector<const char*> kFeedback = {VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};

constexpr VkBufferUsageFlags kFeedbackUsage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT |
                                              VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT |
                                              VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;

// A buffer of `usage` with memory of its own bound.
VkBuffer buffer_for(VkDevice device, VkDeviceSize size, VkBufferUsageFlags usage) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  VkBuffer buffer = VK_NULL_HANDLE;
  vkCreateBuffer(device, &info, nullptr, &buffer);
  VkMemoryRequirements need{};
  vkGetBufferMemoryRequirements(device, buffer, &need);
  vkBindBufferMemory(device, buffer, memory_of(device, need.size, first_type(need.memoryTypeBits)), 0);
  return buffer;
}

VkPhysicalDeviceTransformFeedbackPropertiesEXT feedback_limits(VkPhysicalDevice gpu) {
  VkPhysicalDeviceTransformFeedbackPropertiesEXT limits{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &limits;
  vkGetPhysicalDeviceProperties2(gpu, &props);
  return limits;
}

// A pipeline of feedback.vert alone, rasterization discarded, for dynamic
// rendering without attachments; of `vertex_input` where given.
VkPipeline feedback_pipeline(VkDevice device, const VkPipelineVertexInputStateCreateInfo* vertex_input = nullptr) {
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = sizeof feedback_vert;
  module_info.pCode = feedback_vert;
  VkShaderModule module;
  vkCreateShaderModule(device, &module_info, nullptr, &module);
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
  stage.module = module;
  stage.pName = "main";
  VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.rasterizerDiscardEnable = VK_TRUE;
  raster.lineWidth = 1;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = 1;
  info.pStages = &stage;
  info.pVertexInputState = vertex_input ? vertex_input : &input;
  info.pInputAssemblyState = &assembly;
  info.pRasterizationState = &raster;
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  vkCreatePipelineLayout(device, &layout_info, nullptr, &info.layout);
  VkPipeline pipeline = VK_NULL_HANDLE;
  vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  return pipeline;
}

// Recording inside dynamic rendering of no attachments, the feedback
// pipeline bound.
VkCommandBuffer rendering_buffer(VkDevice device) {
  VkCommandBuffer cb = recording_buffer(device);
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea.extent = {16, 16};
  rendering.layerCount = 1;
  vkCmdBeginRendering(cb, &rendering);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, feedback_pipeline(device));
  return cb;
}

void end_rendering_and_submit(VkDevice device, VkCommandBuffer cb) {
  vkCmdEndRendering(cb);
  end_and_submit(device, cb);
}

// What one capture names: the binding's range and the counter's offset.
struct Capture {
  uint32_t first_binding = 0;
  VkDeviceSize offset = 0;
  VkDeviceSize size = VK_WHOLE_SIZE;
  uint32_t first_counter = 0;
  uint32_t counters = 1;
  VkDeviceSize counter_offset = 0;
  VkBufferUsageFlags usage = kFeedbackUsage;
};

// Binds a buffer, captures four points into it, ends keeping the count in
// the counter, and draws as many points again from that count.
void capture(VkDevice device, const Capture& c, uint32_t vertex_stride = 16) {
  auto bind = device_command<PFN_vkCmdBindTransformFeedbackBuffersEXT>(device, "vkCmdBindTransformFeedbackBuffersEXT");
  auto begin = device_command<PFN_vkCmdBeginTransformFeedbackEXT>(device, "vkCmdBeginTransformFeedbackEXT");
  auto end = device_command<PFN_vkCmdEndTransformFeedbackEXT>(device, "vkCmdEndTransformFeedbackEXT");
  auto draw = device_command<PFN_vkCmdDrawIndirectByteCountEXT>(device, "vkCmdDrawIndirectByteCountEXT");
  VkBuffer target = buffer_for(device, kSmall, c.usage);
  VkBuffer counter = buffer_for(device, kSmall, c.usage);
  std::vector<VkBuffer> counters(c.counters, counter);
  std::vector<VkDeviceSize> counter_offsets(c.counters, c.counter_offset);
  VkCommandBuffer cb = rendering_buffer(device);
  bind(cb, c.first_binding, 1, &target, &c.offset, &c.size);
  begin(cb, 0, 0, nullptr, nullptr);
  vkCmdDraw(cb, 4, 1, 0, 0);
  end(cb, c.first_counter, c.counters, counters.data(), counter_offsets.data());
  draw(cb, 1, 0, counter, c.counter_offset, 0, vertex_stride);
  end_rendering_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, TransformFeedbackCaptureAndDrawRuns) {
  expect_accepted_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    capture(device, {.offset = kSmall - 64, .size = 64, .counter_offset = kSmall - 4});
  });
}

// lavapipe follows the target of binding i for counter i, whatever the
// first counter: a counter for an empty binding crashed it.
TEST(VulkanExtensionRanges, TransformFeedbackCounterForABindingWithoutABuffer) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    const uint32_t last = feedback_limits(gpu).maxTransformFeedbackBuffers - 1;
    capture(device, {.first_binding = last, .first_counter = last});
  });
}

TEST(VulkanExtensionRanges, TransformFeedbackBindingPastTheDevicesLimit) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    capture(device, {.first_binding = feedback_limits(gpu).maxTransformFeedbackBuffers});
  });
}

TEST(VulkanExtensionRanges, TransformFeedbackRangePastItsBuffer) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    capture(device, {.offset = kSmall - 64, .size = 128});
  });
}

TEST(VulkanExtensionRanges, TransformFeedbackOffsetPastItsBuffer) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    capture(device, {.offset = kSmall});
  });
}

TEST(VulkanExtensionRanges, TransformFeedbackIntoABufferNotMadeForIt) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    capture(device, {.usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT |
                              VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT});
  });
}

TEST(VulkanExtensionRanges, TransformFeedbackCountersPastTheDevicesLimit) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    capture(device, {.counters = feedback_limits(gpu).maxTransformFeedbackBuffers + 1});
  });
}

TEST(VulkanExtensionRanges, TransformFeedbackCounterPastItsBuffer) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    capture(device, {.counter_offset = kSmall - 2});
  });
}

TEST(VulkanExtensionRanges, DrawOfAByteCountOfStrideZero) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) { capture(device, {}, 0); });
}

TEST(VulkanExtensionRanges, TransformFeedbackEndedWhileNotActive) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = rendering_buffer(device);
    device_command<PFN_vkCmdEndTransformFeedbackEXT>(device, "vkCmdEndTransformFeedbackEXT")(cb, 0, 0, nullptr,
                                                                                             nullptr);
    end_rendering_and_submit(device, cb);
  });
}

TEST(VulkanExtensionRanges, RenderingEndedWithTransformFeedbackActive) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = rendering_buffer(device);
    device_command<PFN_vkCmdBeginTransformFeedbackEXT>(device, "vkCmdBeginTransformFeedbackEXT")(cb, 0, 0, nullptr,
                                                                                                 nullptr);
    end_rendering_and_submit(device, cb);
  });
}

// Indexed queries: a query of the pool, a stream of the device's, begun
// and ended by the same rules as vkCmdBeginQuery.

VkQueryPool stream_queries(VkDevice device, uint32_t count) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
  info.queryCount = count;
  VkQueryPool pool = VK_NULL_HANDLE;
  vkCreateQueryPool(device, &info, nullptr, &pool);
  return pool;
}

void query_stream(VkDevice device, uint32_t query, uint32_t begun_stream, uint32_t ended_stream) {
  auto begin = device_command<PFN_vkCmdBeginQueryIndexedEXT>(device, "vkCmdBeginQueryIndexedEXT");
  auto end = device_command<PFN_vkCmdEndQueryIndexedEXT>(device, "vkCmdEndQueryIndexedEXT");
  VkQueryPool pool = stream_queries(device, 2);
  VkCommandBuffer cb = recording_buffer(device);
  vkCmdResetQueryPool(cb, pool, 0, 2);
  begin(cb, pool, query, 0, begun_stream);
  end(cb, pool, query, ended_stream);
  end_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, StreamQueryOfTheLastStreamRuns) {
  expect_accepted_with(kFeedback, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    const uint32_t last = feedback_limits(gpu).maxTransformFeedbackStreams - 1;
    query_stream(device, 1, last, last);
  });
}

TEST(VulkanExtensionRanges, StreamQueryPastItsPool) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) { query_stream(device, 2, 0, 0); });
}

TEST(VulkanExtensionRanges, StreamQueryOfAStreamPastTheDevicesLimit) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    const uint32_t past = feedback_limits(gpu).maxTransformFeedbackStreams;
    query_stream(device, 0, past, past);
  });
}

TEST(VulkanExtensionRanges, StreamQueryEndedOfAnotherStream) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) { query_stream(device, 0, 0, 1); });
}

TEST(VulkanExtensionRanges, StreamQueryBegunTwice) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    auto begin = device_command<PFN_vkCmdBeginQueryIndexedEXT>(device, "vkCmdBeginQueryIndexedEXT");
    VkQueryPool pool = stream_queries(device, 2);
    VkCommandBuffer cb = recording_buffer(device);
    vkCmdResetQueryPool(cb, pool, 0, 2);
    begin(cb, pool, 0, 0, 0);
    begin(cb, pool, 0, 0, 0);
  });
}

// VK_EXT_vertex_attribute_divisor: a divisor names one of the pipeline's
// bindings of the instance rate.

void pipeline_with_divisor_of(VkDevice device, uint32_t binding) {
  VkVertexInputBindingDescription per_instance{0, 16, VK_VERTEX_INPUT_RATE_INSTANCE};
  VkVertexInputBindingDivisorDescriptionEXT divisor{binding, 2};
  VkPipelineVertexInputDivisorStateCreateInfoEXT divisors{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT};
  divisors.vertexBindingDivisorCount = 1;
  divisors.pVertexBindingDivisors = &divisor;
  VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  input.pNext = &divisors;
  input.vertexBindingDescriptionCount = 1;
  input.pVertexBindingDescriptions = &per_instance;
  feedback_pipeline(device, &input);
}

const std::vector<const char*> kDivisor = {VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME,
                                           VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};

TEST(VulkanExtensionRanges, DivisorOfAnInstanceBindingRuns) {
  expect_accepted_with(kDivisor, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    pipeline_with_divisor_of(device, 0);
  });
}

TEST(VulkanExtensionRanges, DivisorOfABindingThePipelineLacks) {
  expect_refused_with(kDivisor, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    pipeline_with_divisor_of(device, 1000000);
  });
}

}  // namespace
