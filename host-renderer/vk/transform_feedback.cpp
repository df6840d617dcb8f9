// VK_EXT_transform_feedback's commands against the device's limits and the
// command buffer's recording (Vulkan 1.3, section 29 "Transform Feedback"
// and 17.2 "Query Operation"): lavapipe keeps its bindings in arrays of
// maxTransformFeedbackBuffers, reads the counters of vkCmdBegin-
// TransformFeedbackEXT into a stack array of that size, counts primitives
// of each vertex stream in an array of maxTransformFeedbackStreams, and
// divides a byte count by the vertex stride. The buffers' ranges are
// checked by ResourceShapes (buffer_ranges.cpp).
#include <algorithm>

#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// Bindings or counters [first, first + count) of the device's.
bool in_bindings(uint32_t first, uint32_t count, uint32_t bindings) {
  return first < bindings && fits(first, count, bindings);
}

// Each counter given names a binding that has a buffer, both as the spec
// counts (firstCounterBuffer + i) and as lavapipe does (i, whose target it
// follows without looking: a counter of an empty binding crashed it).
bool counters_bound(uint32_t first, uint32_t count, const VkBuffer* counters, uint32_t bound) {
  for (uint32_t i = 0; counters && i < count; ++i)
    if (counters[i] && (!(bound >> i & 1) || !(bound >> (first + i) & 1))) return false;
  return true;
}

}  // namespace

wire::Status VkHandler::check_transform_feedback(const Recording& r, uint32_t opcode, const void* args) {
  const Recording::Limits& room = r.limits;
  const auto& active = r.active_queries;
  const bool inside = r.within != Recording::Within::kNone;
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBindTransformFeedbackBuffersEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindTransformFeedbackBuffersEXT*>(args);
      if (!in_bindings(a.firstBinding, a.bindingCount, room.feedback_buffers))
        return refused("vkCmdBindTransformFeedbackBuffersEXT", "of bindings past maxTransformFeedbackBuffers");
      if (r.feedback_active)  // lavapipe would free the targets it is writing
        return refused("vkCmdBindTransformFeedbackBuffersEXT", "while transform feedback is active");
      return {};
    }
    case VkOp::vkCmdBeginTransformFeedbackEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdBeginTransformFeedbackEXT*>(args);
      if (!in_bindings(a.firstCounterBuffer, a.counterBufferCount, room.feedback_buffers))
        return refused("vkCmdBeginTransformFeedbackEXT", "of counters past maxTransformFeedbackBuffers");
      if (r.feedback_active) return refused("vkCmdBeginTransformFeedbackEXT", "while transform feedback is active");
      if (!counters_bound(a.firstCounterBuffer, a.counterBufferCount, a.pCounterBuffers, r.feedback_bound))
        return refused("vkCmdBeginTransformFeedbackEXT", "of a counter for a binding without a buffer");
      return {};
    }
    case VkOp::vkCmdEndTransformFeedbackEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndTransformFeedbackEXT*>(args);
      if (!in_bindings(a.firstCounterBuffer, a.counterBufferCount, room.feedback_buffers))
        return refused("vkCmdEndTransformFeedbackEXT", "of counters past maxTransformFeedbackBuffers");
      if (!r.feedback_active) return refused("vkCmdEndTransformFeedbackEXT", "while transform feedback is not active");
      if (!counters_bound(a.firstCounterBuffer, a.counterBufferCount, a.pCounterBuffers, r.feedback_bound))
        return refused("vkCmdEndTransformFeedbackEXT", "of a counter for a binding without a buffer");
      return {};
    }
    case VkOp::vkCmdBeginQueryIndexedEXT: {  // as vkCmdBeginQuery (recording.cpp), of a stream the device has
      const auto& a = *static_cast<const VkArgs_vkCmdBeginQueryIndexedEXT*>(args);
      const uint64_t pool = raw_handle(a.queryPool);
      if (a.index >= room.feedback_streams)
        return refused("vkCmdBeginQueryIndexedEXT", "of a stream past maxTransformFeedbackStreams");
      // Queries of one pool may be active together on different streams
      // (VUID-vkCmdBeginQueryIndexedEXT-queryPool-04753): zink counts every
      // stream's primitives at once for GL's overflow queries.
      if (std::any_of(active.begin(), active.end(),
                      [&](const auto& q) { return q.pool == pool && (q.query == a.query || q.index == a.index); }))
        return refused("vkCmdBeginQueryIndexedEXT", "of a query or a stream of its pool active already");
      if (r.graphics_pushed && !r.graphics_bound)
        return refused("vkCmdBeginQueryIndexedEXT", "after graphics push constants, before any graphics pipeline is bound");
      return {};
    }
    case VkOp::vkCmdEndQueryIndexedEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndQueryIndexedEXT*>(args);
      const uint64_t pool = raw_handle(a.queryPool);
      auto it = std::find_if(active.begin(), active.end(), [&](const auto& q) {
        return q.pool == pool && q.query == a.query && q.index == a.index;
      });
      if (it == active.end() || it->in_render_pass != inside || (inside && it->subpass != r.subpass))
        return refused("vkCmdEndQueryIndexedEXT", "of a query not active here with this stream");
      return {};
    }
    default: {  // vkCmdDrawIndirectByteCountEXT: the byte count is divided by the stride
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndirectByteCountEXT*>(args);
      if (a.vertexStride == 0 || a.vertexStride > room.feedback_stride)
        return refused("vkCmdDrawIndirectByteCountEXT", "of a vertex stride of 0 or past the device's most");
      return {};
    }
  }
}

// After the command was recorded.
void VkHandler::note_transform_feedback(Recording& r, uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBindTransformFeedbackBuffersEXT: {  // of bindings checked within 32
      const auto& a = *static_cast<const VkArgs_vkCmdBindTransformFeedbackBuffersEXT*>(args);
      for (uint32_t i = 0; i < a.bindingCount; ++i) r.feedback_bound |= 1u << (a.firstBinding + i);
      break;
    }
    case VkOp::vkCmdBeginTransformFeedbackEXT:
      r.feedback_active = true;
      break;
    case VkOp::vkCmdEndTransformFeedbackEXT:
      r.feedback_active = false;
      break;
    case VkOp::vkCmdBeginQueryIndexedEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdBeginQueryIndexedEXT*>(args);
      r.active_queries.push_back(
          {raw_handle(a.queryPool), a.query, r.within != Recording::Within::kNone, r.subpass, a.index});
      break;
    }
    case VkOp::vkCmdEndQueryIndexedEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndQueryIndexedEXT*>(args);
      std::erase_if(r.active_queries,
                    [&](const auto& q) { return q.pool == raw_handle(a.queryPool) && q.query == a.query; });
      break;
    }
    default:
      break;
  }
}

}  // namespace host::vk
