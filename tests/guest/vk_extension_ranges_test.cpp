// The commands of the extensions Conduit carries, with values past what
// they name or allow: the host refuses each before the driver sees it, and
// only the program's Vulkan is lost. Each class has a control in the rules
// that the device survives.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include <unistd.h>

#include "vk_feedback_pipeline.h"
#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;

constexpr VkDeviceSize kSmall = 4096;

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

// Vulkan 1.3's dynamic state of VK_EXT_extended_dynamic_state: bitmasks
// drivers index their tables by hold only their types' bits (the
// decoder's generated check).

void set_faces(VkDevice device, uint32_t cull_mode, uint32_t face_mask) {
  VkCommandBuffer cb = recording_buffer(device);
  device_command<PFN_vkCmdSetCullMode>(device, "vkCmdSetCullMode")(cb, cull_mode);
  device_command<PFN_vkCmdSetStencilOp>(device, "vkCmdSetStencilOp")(
      cb, face_mask, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_ZERO, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
  end_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, CullModeAndFaceMaskOfTheirTypesBitsRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_faces(device, VK_CULL_MODE_FRONT_AND_BACK, VK_STENCIL_FACE_BACK_BIT);
  });
}

TEST(VulkanExtensionRanges, CullModeOfABitItsTypeLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { set_faces(device, 4, VK_STENCIL_FACE_FRONT_BIT); });
}

TEST(VulkanExtensionRanges, StencilFaceMaskOfABitItsTypeLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { set_faces(device, VK_CULL_MODE_NONE, 0x13); });
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
  bind_own_memory(device, buffer);
  return buffer;
}

// An extension's properties (`Limits`, of structure `type`) of `gpu`.
template <typename Limits>
Limits limits_of(VkPhysicalDevice gpu, VkStructureType type) {
  Limits limits{type};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
  vkGetPhysicalDeviceProperties2(gpu, &props);
  return limits;
}

VkPhysicalDeviceTransformFeedbackPropertiesEXT feedback_limits(VkPhysicalDevice gpu) {
  return limits_of<VkPhysicalDeviceTransformFeedbackPropertiesEXT>(
      gpu, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT);
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

// A rendering whose only transform feedback command is `name` (its Begin
// or End, of no counter buffers) is refused.
template <typename Command>
void expect_lone_feedback_command_refused(const char* name) {
  expect_refused_with(kFeedback, [name](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = rendering_buffer(device);
    device_command<Command>(device, name)(cb, 0, 0, nullptr, nullptr);
    end_rendering_and_submit(device, cb);
  });
}

TEST(VulkanExtensionRanges, TransformFeedbackEndedWhileNotActive) {
  expect_lone_feedback_command_refused<PFN_vkCmdEndTransformFeedbackEXT>(
      "vkCmdEndTransformFeedbackEXT");
}

TEST(VulkanExtensionRanges, RenderingEndedWithTransformFeedbackActive) {
  expect_lone_feedback_command_refused<PFN_vkCmdBeginTransformFeedbackEXT>(
      "vkCmdBeginTransformFeedbackEXT");
}

// Indexed queries: a query of the pool, a stream of the device's, begun
// and ended by the same rules as vkCmdBeginQuery.

VkQueryPool stream_queries(VkDevice device, uint32_t count) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
  info.queryCount = count;
  return guesttest::created(device, info, vkCreateQueryPool);
}

// The indexed query commands, and a recording that reset a pool of two
// stream queries.
struct StreamQueries {
  explicit StreamQueries(VkDevice device)
      : begin(device_command<PFN_vkCmdBeginQueryIndexedEXT>(device, "vkCmdBeginQueryIndexedEXT")),
        end(device_command<PFN_vkCmdEndQueryIndexedEXT>(device, "vkCmdEndQueryIndexedEXT")),
        pool(stream_queries(device, 2)),
        cb(recording_buffer(device)) {
    vkCmdResetQueryPool(cb, pool, 0, 2);
  }

  PFN_vkCmdBeginQueryIndexedEXT begin;
  PFN_vkCmdEndQueryIndexedEXT end;
  VkQueryPool pool;
  VkCommandBuffer cb;
};

void query_stream(VkDevice device, uint32_t query, uint32_t begun_stream, uint32_t ended_stream) {
  const StreamQueries q(device);
  q.begin(q.cb, q.pool, query, 0, begun_stream);
  q.end(q.cb, q.pool, query, ended_stream);
  end_and_submit(device, q.cb);
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

// Begins two queries of one pool, each on its stream, and ends them.
void query_two_streams(VkDevice device, uint32_t first_query, uint32_t first_stream, uint32_t second_query,
                       uint32_t second_stream) {
  const StreamQueries q(device);
  q.begin(q.cb, q.pool, first_query, 0, first_stream);
  q.begin(q.cb, q.pool, second_query, 0, second_stream);
  q.end(q.cb, q.pool, second_query, second_stream);
  q.end(q.cb, q.pool, first_query, first_stream);
  end_and_submit(device, q.cb);
}

// query_two_streams as a guest's use, for expect_accepted_with and
// expect_refused_with.
auto two_streams(uint32_t first_query, uint32_t first_stream, uint32_t second_query, uint32_t second_stream) {
  return [=](VkInstance, VkPhysicalDevice, VkDevice device) {
    query_two_streams(device, first_query, first_stream, second_query, second_stream);
  };
}

TEST(VulkanExtensionRanges, StreamQueriesOfOnePoolOnTwoStreamsRun) {
  expect_accepted_with(kFeedback, two_streams(0, 0, 1, 1));
}

TEST(VulkanExtensionRanges, StreamQueryBegunTwice) { expect_refused_with(kFeedback, two_streams(0, 0, 0, 0)); }

TEST(VulkanExtensionRanges, StreamQueryBegunTwiceOnAnotherStream) {
  expect_refused_with(kFeedback, two_streams(0, 0, 0, 1));
}

TEST(VulkanExtensionRanges, StreamQueryOfAStreamActiveInItsPool) {
  expect_refused_with(kFeedback, two_streams(0, 1, 1, 1));
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

// VK_EXT_multi_draw: at most maxMultiDrawCount records, a stride that
// holds one, each indexed draw's indices inside the bound index buffer.

const std::vector<const char*> kMultiDraw = {VK_EXT_MULTI_DRAW_EXTENSION_NAME, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};

uint32_t most_multi_draws(VkPhysicalDevice gpu) {
  return limits_of<VkPhysicalDeviceMultiDrawPropertiesEXT>(
             gpu, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT)
      .maxMultiDrawCount;
}

// Indexed draws of `draws` (firstIndex, indexCount), records `stride`
// bytes apart, from an index buffer of kSmall bytes of 16-bit indices.
void draw_indexed_many(VkDevice device, const std::vector<std::pair<uint32_t, uint32_t>>& draws, uint32_t stride) {
  std::vector<std::byte> records(draws.size() * std::max<uint32_t>(stride, sizeof(VkMultiDrawIndexedInfoEXT)));
  for (size_t i = 0; i < draws.size(); ++i) {
    const VkMultiDrawIndexedInfoEXT draw{draws[i].first, draws[i].second, 0};
    std::memcpy(records.data() + i * stride, &draw, sizeof draw);
  }
  VkCommandBuffer cb = rendering_buffer(device);
  vkCmdBindIndexBuffer(cb, buffer_for(device, kSmall, VK_BUFFER_USAGE_INDEX_BUFFER_BIT), 0, VK_INDEX_TYPE_UINT16);
  const int32_t vertex_offset = 0;
  device_command<PFN_vkCmdDrawMultiIndexedEXT>(device, "vkCmdDrawMultiIndexedEXT")(
      cb, static_cast<uint32_t>(draws.size()), reinterpret_cast<const VkMultiDrawIndexedInfoEXT*>(records.data()), 1,
      0, stride, &vertex_offset);
  end_rendering_and_submit(device, cb);
}

void draw_many(VkDevice device, uint32_t count, uint32_t stride) {
  std::vector<std::byte> records(size_t{count} * std::max<uint32_t>(stride, sizeof(VkMultiDrawInfoEXT)));
  for (uint32_t i = 0; i < count; ++i) {
    const VkMultiDrawInfoEXT draw{i, 3};
    std::memcpy(records.data() + size_t{i} * stride, &draw, sizeof draw);
  }
  VkCommandBuffer cb = rendering_buffer(device);
  device_command<PFN_vkCmdDrawMultiEXT>(device, "vkCmdDrawMultiEXT")(
      cb, count, reinterpret_cast<const VkMultiDrawInfoEXT*>(records.data()), 1, 0, stride);
  end_rendering_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, MultiDrawsInsideTheirIndexBufferRun) {
  expect_accepted_with(kMultiDraw, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    const uint32_t last = kSmall / 2;
    draw_indexed_many(device, {{0, 3}, {last - 8, 8}}, 16);
    draw_many(device, most_multi_draws(gpu), 12);
  });
}

TEST(VulkanExtensionRanges, MultiDrawIndicesPastTheIndexBuffer) {
  expect_refused_with(kMultiDraw, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    draw_indexed_many(device, {{0, 3}, {kSmall / 2 - 4, 8}}, 12);
  });
}

TEST(VulkanExtensionRanges, MultiDrawOfAStrideShorterThanARecord) {
  expect_refused_with(kMultiDraw, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    draw_indexed_many(device, {{0, 3}, {0, 3}}, 8);
  });
}

TEST(VulkanExtensionRanges, MultiDrawOfAStrideNotOfWholeWords) {
  expect_refused_with(kMultiDraw, [](VkInstance, VkPhysicalDevice, VkDevice device) { draw_many(device, 2, 10); });
}

TEST(VulkanExtensionRanges, MultiDrawOfMoreDrawsThanTheDevicesLimit) {
  expect_refused_with(kMultiDraw, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    draw_many(device, most_multi_draws(gpu) + 1, 8);
  });
}

// An indirect draw's records come from a buffer made for them.
TEST(VulkanExtensionRanges, IndirectDrawFromABufferNotMadeForIt) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdDrawIndirect(rendering_buffer(device), buffer_for(device, kSmall, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), 0, 1,
                      sizeof(VkDrawIndirectCommand));
  });
}

TEST(VulkanExtensionRanges, IndirectDrawFromABufferMadeForItIsRecorded) {
  expect_accepted_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = rendering_buffer(device);
    vkCmdDrawIndirect(cb, buffer_for(device, kSmall, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT), 0, 1,
                      sizeof(VkDrawIndirectCommand));
    vkCmdEndRendering(cb);
  });
}

TEST(VulkanExtensionRanges, MultiDrawOfAMissingArrayOfDraws) {
  expect_refused_with(kMultiDraw, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    device_command<PFN_vkCmdDrawMultiEXT>(device, "vkCmdDrawMultiEXT")(rendering_buffer(device), 2, nullptr, 1, 0,
                                                                       sizeof(VkMultiDrawInfoEXT));
  });
}

// Vertices one draw asks for, instances included, within the host's
// --max-draw-vertices (2^28 by default). Recorded, never submitted past it.

TEST(VulkanExtensionRanges, DrawsOfTheHostsMostVerticesAreRecorded) {
  expect_accepted_with(kMultiDraw, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = rendering_buffer(device);
    vkCmdDraw(cb, 1u << 14, 1u << 14, 0, 0);
    const VkMultiDrawInfoEXT draws[] = {{0, 1u << 13}, {0, 1u << 13}};
    device_command<PFN_vkCmdDrawMultiEXT>(device, "vkCmdDrawMultiEXT")(cb, 2, draws, 1u << 14, 0, sizeof draws[0]);
    vkCmdEndRendering(cb);
  });
}

TEST(VulkanExtensionRanges, DrawOfMoreVerticesThanTheHostAllows) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdDraw(rendering_buffer(device), 1u << 14, (1u << 14) + 1, 0, 0);
  });
}

TEST(VulkanExtensionRanges, DrawOfEveryVertexAndInstanceAtOnce) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdDraw(rendering_buffer(device), 0xffffffff, 0xffffffff, 0, 0);
  });
}

TEST(VulkanExtensionRanges, IndexedDrawOfMoreInstancesThanTheHostAllows) {
  expect_refused_with(kFeedback, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = rendering_buffer(device);
    vkCmdBindIndexBuffer(cb, buffer_for(device, kSmall, VK_BUFFER_USAGE_INDEX_BUFFER_BIT), 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexed(cb, 3, 0xffffffff, 0, 0, 0);
  });
}

TEST(VulkanExtensionRanges, MultiDrawWhoseDrawsTogetherPassTheHostsLimit) {
  expect_refused_with(kMultiDraw, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkMultiDrawInfoEXT draws[] = {{0, 1u << 13}, {0, (1u << 13) + 1}};
    device_command<PFN_vkCmdDrawMultiEXT>(device, "vkCmdDrawMultiEXT")(rendering_buffer(device), 2, draws, 1u << 14, 0,
                                                                       sizeof draws[0]);
  });
}

// VK_KHR_push_descriptor: a set of the pipeline layout made for pushing,
// each write checked as vkUpdateDescriptorSets's are.

const std::vector<const char*> kPush = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};

// add_one.comp's set layout (a uniform buffer at binding 0, a storage
// buffer at 1), made for pushing where `pushed`.
VkDescriptorSetLayout add_one_set_layout(VkDevice device, bool pushed) {
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = pushed ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0;
  info.bindingCount = 2;
  info.pBindings = bindings;
  return guesttest::created(device, info, vkCreateDescriptorSetLayout);
}

VkPipelineLayout add_one_layout(VkDevice device, bool pushed = true) {
  return layout_of(device, add_one_set_layout(device, pushed));
}

// What one push names: the set number, the first write's array element
// and the uniform range.
struct Push {
  uint32_t set = 0;
  uint32_t element = 0;
  VkDeviceSize uniform_offset = 0;
  VkDeviceSize uniform_range = 256;
  bool pushed_layout = true;
};

// Pushes add_one.comp's two buffers and dispatches it.
void push_and_dispatch(VkDevice device, const Push& p) {
  VkBuffer buffer = buffer_for(device, kSmall, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkPipelineLayout layout = add_one_layout(device, p.pushed_layout);
  VkDescriptorBufferInfo uniform{buffer, p.uniform_offset, p.uniform_range};
  VkDescriptorBufferInfo storage{buffer, 256, VK_WHOLE_SIZE};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  writes[0].dstArrayElement = p.element;
  writes[0].descriptorCount = 1;
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  writes[0].pBufferInfo = &uniform;
  writes[1].dstBinding = 1;
  writes[1].descriptorCount = 1;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[1].pBufferInfo = &storage;
  VkCommandBuffer cb = recording_buffer(device);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, add_one_pipeline(device, layout));
  device_command<PFN_vkCmdPushDescriptorSetKHR>(device, "vkCmdPushDescriptorSetKHR")(
      cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, p.set, 2, writes);
  vkCmdDispatch(cb, 1, 1, 1);
  end_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, PushedDescriptorsRun) {
  expect_accepted_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    push_and_dispatch(device, {.uniform_offset = kSmall - 256});
  });
}

TEST(VulkanExtensionRanges, PushIntoASetThePipelineLayoutLacks) {
  expect_refused_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) { push_and_dispatch(device, {.set = 1}); });
}

TEST(VulkanExtensionRanges, PushIntoASetLayoutNotMadeForPushing) {
  expect_refused_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    push_and_dispatch(device, {.pushed_layout = false});
  });
}

TEST(VulkanExtensionRanges, PushOfAnArrayElementOfTwoToThe28th) {
  expect_refused_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    push_and_dispatch(device, {.element = 1u << 28});
  });
}

TEST(VulkanExtensionRanges, PushOfABufferRangePastItsEnd) {
  expect_refused_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    push_and_dispatch(device, {.uniform_offset = kSmall - 128});
  });
}

// A layout made for pushing has no sets of its own
// (VUID-VkDescriptorSetAllocateInfo-pSetLayouts-00308).

TEST(VulkanExtensionRanges, SetOfALayoutNotMadeForPushingIsAllocated) {
  expect_accepted_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_of(device, add_one_set_layout(device, false));
  });
}

TEST(VulkanExtensionRanges, SetAllocatedOfALayoutMadeForPushing) {
  expect_refused_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    set_of(device, add_one_set_layout(device, true));
  });
}

// A template for pushing add_one.comp's two buffers into `set`.
VkDescriptorUpdateTemplate push_template(VkDevice device, VkPipelineLayout layout, uint32_t set) {
  VkDescriptorUpdateTemplateEntry entries[2] = {
      {0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0, sizeof(VkDescriptorBufferInfo)},
      {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sizeof(VkDescriptorBufferInfo), sizeof(VkDescriptorBufferInfo)}};
  const VkDescriptorUpdateTemplateCreateInfo info{
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
      .descriptorUpdateEntryCount = 2,
      .pDescriptorUpdateEntries = entries,
      .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
      .pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE,
      .pipelineLayout = layout,
      .set = set};
  return guesttest::created(device, info, vkCreateDescriptorUpdateTemplate);
}

void push_with_template(VkDevice device, VkDeviceSize uniform_offset) {
  VkBuffer buffer = buffer_for(device, kSmall, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkPipelineLayout layout = add_one_layout(device);
  const VkDescriptorBufferInfo data[2] = {{buffer, uniform_offset, 256}, {buffer, 256, VK_WHOLE_SIZE}};
  VkCommandBuffer cb = recording_buffer(device);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, add_one_pipeline(device, layout));
  device_command<PFN_vkCmdPushDescriptorSetWithTemplateKHR>(device, "vkCmdPushDescriptorSetWithTemplateKHR")(
      cb, push_template(device, layout, 0), layout, 0, data);
  vkCmdDispatch(cb, 1, 1, 1);
  end_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, PushWithATemplateRuns) {
  expect_accepted_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) { push_with_template(device, 0); });
}

TEST(VulkanExtensionRanges, PushWithATemplateOfABufferRangePastItsEnd) {
  expect_refused_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    push_with_template(device, kSmall - 128);
  });
}

TEST(VulkanExtensionRanges, PushTemplateOfASetThePipelineLayoutLacks) {
  expect_refused_with(kPush, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    push_template(device, add_one_layout(device), 3);
  });
}

// VK_EXT_extended_dynamic_state3: each command only with its feature
// enabled, attachments within maxColorAttachments, one sample count,
// polygon modes and blend operations drivers convert.

const std::vector<const char*> kDynamicState3 = {VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME};

// A second device of the program's, with every extended dynamic state 3
// feature the device has enabled.
VkDevice dynamic_state3_device(VkPhysicalDevice gpu) {
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
  vkGetPhysicalDeviceFeatures2(gpu, &all);
  VkDevice device = VK_NULL_HANDLE;
  if (create_device(gpu, kDynamicState3, &features, &device) != VK_SUCCESS) std::exit(8);
  return device;
}

template <typename Fn>
Fn state3(VkDevice device, const char* name) {
  return device_command<Fn>(device, name);
}

uint32_t color_attachments(VkPhysicalDevice gpu) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(gpu, &props);
  return props.limits.maxColorAttachments;
}

// What one recording sets: color attachments [first, first + count), the
// sample count of the mask and of rasterization, the polygon mode.
struct State3 {
  uint32_t first = 0;
  uint32_t count = 1;
  uint32_t mask_samples = VK_SAMPLE_COUNT_4_BIT;
  uint32_t samples = VK_SAMPLE_COUNT_4_BIT;
  uint32_t polygon_mode = VK_POLYGON_MODE_LINE;
  uint32_t blend_op = VK_BLEND_OP_MAX;
};

void set_state3(VkDevice device, const State3& s) {
  const std::vector<VkBool32> enables(s.count, VK_TRUE);
  const std::vector<VkColorComponentFlags> masks(s.count, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT);
  const VkColorBlendEquationEXT equation{VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                                         static_cast<VkBlendOp>(s.blend_op), VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                         VK_BLEND_OP_ADD};
  const std::vector<VkColorBlendEquationEXT> equations(s.count, equation);
  const VkSampleMask sample_mask[2] = {0xf, 0};
  VkCommandBuffer cb = recording_buffer(device);
  state3<PFN_vkCmdSetColorBlendEnableEXT>(device, "vkCmdSetColorBlendEnableEXT")(cb, s.first, s.count, enables.data());
  state3<PFN_vkCmdSetColorWriteMaskEXT>(device, "vkCmdSetColorWriteMaskEXT")(cb, s.first, s.count, masks.data());
  state3<PFN_vkCmdSetColorBlendEquationEXT>(device, "vkCmdSetColorBlendEquationEXT")(cb, s.first, s.count,
                                                                                     equations.data());
  state3<PFN_vkCmdSetSampleMaskEXT>(device, "vkCmdSetSampleMaskEXT")(
      cb, static_cast<VkSampleCountFlagBits>(s.mask_samples), sample_mask);
  state3<PFN_vkCmdSetRasterizationSamplesEXT>(device, "vkCmdSetRasterizationSamplesEXT")(
      cb, static_cast<VkSampleCountFlagBits>(s.samples));
  state3<PFN_vkCmdSetPolygonModeEXT>(device, "vkCmdSetPolygonModeEXT")(cb, static_cast<VkPolygonMode>(s.polygon_mode));
  state3<PFN_vkCmdSetDepthClampEnableEXT>(device, "vkCmdSetDepthClampEnableEXT")(cb, VK_TRUE);
  state3<PFN_vkCmdSetLineRasterizationModeEXT>(device, "vkCmdSetLineRasterizationModeEXT")(
      cb, VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT);
  end_and_submit(device, cb);  // the program's first device waits: a refusal loses its Vulkan
}

TEST(VulkanExtensionRanges, DynamicState3OfEnabledFeaturesRuns) {
  expect_accepted_with(kDynamicState3, [](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    set_state3(dynamic_state3_device(gpu), {.count = color_attachments(gpu)});
  });
}

TEST(VulkanExtensionRanges, DynamicState3WithoutItsFeatureEnabled) {
  expect_refused_with(kDynamicState3, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = recording_buffer(device);
    state3<PFN_vkCmdSetPolygonModeEXT>(device, "vkCmdSetPolygonModeEXT")(cb, VK_POLYGON_MODE_LINE);
    end_and_submit(device, cb);
  });
}

TEST(VulkanExtensionRanges, ColorAttachmentsPastTheDevicesLimit) {
  expect_refused_with(kDynamicState3, [](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    set_state3(dynamic_state3_device(gpu), {.first = color_attachments(gpu) - 1, .count = 2});
  });
}

TEST(VulkanExtensionRanges, SampleMaskOfAValueNotOneSampleCount) {
  expect_refused_with(kDynamicState3, [](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    set_state3(dynamic_state3_device(gpu), {.mask_samples = 3});
  });
}

TEST(VulkanExtensionRanges, RasterizationSamplesPastTheSpecsMost) {
  expect_refused_with(kDynamicState3, [](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    set_state3(dynamic_state3_device(gpu), {.samples = 128});
  });
}

TEST(VulkanExtensionRanges, PolygonModeOfAnExtensionNotCarried) {
  expect_refused_with(kDynamicState3, [](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    set_state3(dynamic_state3_device(gpu), {.polygon_mode = VK_POLYGON_MODE_FILL_RECTANGLE_NV});
  });
}

TEST(VulkanExtensionRanges, BlendOperationOfAnExtensionNotCarried) {
  expect_refused_with(kDynamicState3, [](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    set_state3(dynamic_state3_device(gpu), {.blend_op = VK_BLEND_OP_MULTIPLY_EXT});
  });
}

// Work no count check can bound ends at the host's --submission-timeout:
// an indirect draw of the counts its command buffer wrote (2^32 - 1
// vertices and instances) keeps lavapipe busy for days. The guest's wait
// ends in VK_ERROR_DEVICE_LOST, its renderer ends with the work, and the
// host serves the next guest.

void draw_counts_written_on_the_device(VkDevice device) {
  VkBuffer counts = buffer_for(device, kSmall, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cb = recording_buffer(device);
  vkCmdFillBuffer(cb, counts, 0, sizeof(VkDrawIndirectCommand), 0xffffffff);
  VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_ACCESS_INDIRECT_COMMAND_READ_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &written, 0,
                       nullptr, 0, nullptr);
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea.extent = {16, 16};
  rendering.layerCount = 1;
  vkCmdBeginRendering(cb, &rendering);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, feedback_pipeline(device));
  vkCmdDrawIndirect(cb, counts, 0, 1, sizeof(VkDrawIndirectCommand));
  end_rendering_and_submit(device, cb);
}

TEST(VulkanSubmissionTimeout, WorkThatNeverEndsLosesTheDeviceAndItsRendererEnds) {
  HostProcess host({"--submission-timeout", "2"});
  ASSERT_TRUE(host.ok()) << host.error();
  auto child = [&] {
    alarm(60);  // without the timeout the wait below never returns
    use_conduit_icd(host);
    VkInstance instance = make_instance();
    VkDevice device = make_device(first_gpu(instance), kFeedback);
    if (!device) std::exit(6);
    draw_counts_written_on_the_device(device);
    std::exit(vkDeviceWaitIdle(device) == VK_ERROR_DEVICE_LOST ? 0 : 3);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "");
  expect_accepted_on(host, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    end_and_submit(device, recording_buffer(device));
  });
}

}  // namespace
