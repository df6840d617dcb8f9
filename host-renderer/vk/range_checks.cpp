// Which check each command gets, and the checks of memory binds and query
// indices (Vulkan 1.3, sections 12.7 "Resource Memory Association" and 17
// "Queries"). A command that names no range passes through untouched: one
// look into a table by opcode is all a draw costs.
#include <string>
#include <vector>

#include "vk/dynamic_state3.h"
#include "vk/handle_table.h"
#include "vk/refusal.h"
#include "vk/resource_shapes.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

// The commands of vk-annotations.toml's [ranges], each with its check (a
// test holds the two lists equal).
ResourceShapes::Check ResourceShapes::check_of(uint32_t opcode) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdCopyBuffer:
    case VkOp::vkCmdCopyBuffer2:
    case VkOp::vkCmdUpdateBuffer:
    case VkOp::vkCmdFillBuffer:
    case VkOp::vkCmdBindVertexBuffers:
    case VkOp::vkCmdBindVertexBuffers2:
    case VkOp::vkCmdBindIndexBuffer:
    case VkOp::vkCmdDrawIndirect:
    case VkOp::vkCmdDrawIndexedIndirect:
    case VkOp::vkCmdDrawIndirectCount:
    case VkOp::vkCmdDrawIndexedIndirectCount:
    case VkOp::vkCmdDispatchIndirect:
    case VkOp::vkCmdBeginConditionalRenderingEXT:
      return &ResourceShapes::check_buffer_command;
    case VkOp::vkCmdBindTransformFeedbackBuffersEXT:
    case VkOp::vkCmdBeginTransformFeedbackEXT:
    case VkOp::vkCmdEndTransformFeedbackEXT:
    case VkOp::vkCmdDrawIndirectByteCountEXT:
      return &ResourceShapes::check_feedback_buffers;
    case VkOp::vkCmdCopyBufferToImage:
    case VkOp::vkCmdCopyBufferToImage2:
    case VkOp::vkCmdCopyImageToBuffer:
    case VkOp::vkCmdCopyImageToBuffer2:
    case VkOp::vkCmdCopyImage:
    case VkOp::vkCmdCopyImage2:
    case VkOp::vkCmdResolveImage:
    case VkOp::vkCmdResolveImage2:
    case VkOp::vkCmdBlitImage:
    case VkOp::vkCmdBlitImage2:
    case VkOp::vkCmdClearColorImage:
    case VkOp::vkCmdClearDepthStencilImage:
      return &ResourceShapes::check_image_command;
    case VkOp::vkCreateImageView:
    case VkOp::vkCreateBufferView:
      return &ResourceShapes::check_views;
    case VkOp::vkGetImageSubresourceLayout:
      return &ResourceShapes::check_subresource_layout;
    case VkOp::vkUpdateDescriptorSets:
      return &ResourceShapes::check_descriptor_updates;
    case VkOp::vkCmdBindDescriptorSets:
      return &ResourceShapes::check_descriptor_binds;
    case VkOp::vkCmdPushDescriptorSetKHR:
      return &ResourceShapes::check_pushed_descriptors;
    case VkOp::vkCreateDescriptorUpdateTemplate:
      return &ResourceShapes::check_update_template;
    case VkOp::vkAllocateDescriptorSets:
      return &ResourceShapes::check_set_allocation;
    case VkOp::vkCmdPushConstants:
      return &ResourceShapes::check_push_constants;
    case VkOp::vkCmdDrawMultiEXT:
    case VkOp::vkCmdDrawMultiIndexedEXT:
      return &ResourceShapes::check_multi_draw_records;
    case VkOp::vkBindBufferMemory:
    case VkOp::vkBindBufferMemory2:
    case VkOp::vkBindImageMemory:
    case VkOp::vkBindImageMemory2:
      return &ResourceShapes::check_memory_binds;
    case VkOp::vkCmdResetQueryPool:
    case VkOp::vkCmdBeginQuery:
    case VkOp::vkCmdEndQuery:
    case VkOp::vkCmdWriteTimestamp:
    case VkOp::vkCmdWriteTimestamp2:
    case VkOp::vkCmdBeginQueryIndexedEXT:
    case VkOp::vkCmdEndQueryIndexedEXT:
    case VkOp::vkCmdCopyQueryPoolResults:
    case VkOp::vkGetQueryPoolResults:
    case VkOp::vkResetQueryPool:
      return &ResourceShapes::check_queries;
    case VkOp::vkQueueSubmit:
    case VkOp::vkQueueSubmit2:
      return &ResourceShapes::check_semaphore_waits;
    case VkOp::vkGetSemaphoreCounterValue:
    case VkOp::vkSignalSemaphore:
    case VkOp::vkWaitSemaphores:
      return &ResourceShapes::check_timelines;
    case VkOp::vkCmdSetPatchControlPointsEXT:
    case VkOp::vkCmdSetLineStippleEXT:
      return &ResourceShapes::check_dynamic_state;
    default:
      if (is_dynamic_state3(opcode)) return &ResourceShapes::check_dynamic_state3_values;
      return nullptr;
  }
}

wire::Status ResourceShapes::check(uint32_t opcode, const void* args) const {
  static const std::vector<Check> kChecks = per_command<Check>([](const CommandDesc& c) { return check_of(c.opcode); });
  const Check* found = entry_of(kChecks, opcode);
  return found && *found ? (this->*(*found))(opcode, args) : wire::Status{};
}

bool ResourceShapes::checks(uint32_t opcode) { return check_of(opcode) != nullptr; }

// Memory of the guest's, of a type the resource may live in, at an offset
// of its alignment with room for all of it; once per resource.
wire::Status ResourceShapes::check_bind(const char* command, uint64_t memory, uint64_t offset, uint64_t need_bytes,
                                        uint64_t need_alignment, uint32_t memory_types) const {
  auto m = memory_.find(memory);
  if (m == memory_.end() || !(memory_types >> m->second.type_index & 1) ||
      (need_alignment && offset % need_alignment) || !fits(offset, need_bytes, m->second.size))
    return refused(command, "at an offset or of memory that cannot hold it");
  return {};
}

wire::Status ResourceShapes::check_memory_binds(uint32_t opcode, const void* args) const {
  auto bind_buffer = [this](const char* command, VkBuffer buffer, VkDeviceMemory memory, uint64_t offset) {
    auto b = buffers_.find(raw_handle(buffer));
    if (b == buffers_.end() || b->second.memory) return wire::Status(refused(command, "of a buffer bound already"));
    const BufferShape& s = b->second;
    return check_bind(command, raw_handle(memory), offset, s.need_bytes, s.need_alignment, s.memory_types);
  };
  auto bind_image = [this](const char* command, VkImage image, VkDeviceMemory memory, uint64_t offset) {
    auto i = images_.find(raw_handle(image));
    if (i == images_.end() || i->second.memory) return wire::Status(refused(command, "of an image bound already"));
    const ImageShape& s = i->second;
    return check_bind(command, raw_handle(memory), offset, s.need_bytes, s.need_alignment, s.memory_types);
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkBindBufferMemory: {
      const auto& a = *static_cast<const VkArgs_vkBindBufferMemory*>(args);
      return bind_buffer("vkBindBufferMemory", a.buffer, a.memory, a.memoryOffset);
    }
    case VkOp::vkBindImageMemory: {
      const auto& a = *static_cast<const VkArgs_vkBindImageMemory*>(args);
      return bind_image("vkBindImageMemory", a.image, a.memory, a.memoryOffset);
    }
    case VkOp::vkBindBufferMemory2: {
      const auto& a = *static_cast<const VkArgs_vkBindBufferMemory2*>(args);
      for (uint32_t i = 0; i < a.bindInfoCount; ++i) {
        const VkBindBufferMemoryInfo& b = a.pBindInfos[i];
        WIRE_TRY(bind_buffer("vkBindBufferMemory2", b.buffer, b.memory, b.memoryOffset));
      }
      return {};
    }
    default: {
      const auto& a = *static_cast<const VkArgs_vkBindImageMemory2*>(args);
      for (uint32_t i = 0; i < a.bindInfoCount; ++i) {
        const VkBindImageMemoryInfo& b = a.pBindInfos[i];
        WIRE_TRY(bind_image("vkBindImageMemory2", b.image, b.memory, b.memoryOffset));
      }
      return {};
    }
  }
}

wire::Status ResourceShapes::check_queries(uint32_t opcode, const void* args) const {
  auto in_pool = [this](const char* command, VkQueryPool pool, uint64_t first, uint64_t count) -> wire::Status {
    auto p = query_pools_.find(raw_handle(pool));
    if (p == query_pools_.end() || !fits(first, count, p->second.count))
      return refused(command, "of queries its pool does not have");
    return {};
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdResetQueryPool: {
      const auto& a = *static_cast<const VkArgs_vkCmdResetQueryPool*>(args);
      return in_pool("vkCmdResetQueryPool", a.queryPool, a.firstQuery, a.queryCount);
    }
    case VkOp::vkResetQueryPool: {
      const auto& a = *static_cast<const VkArgs_vkResetQueryPool*>(args);
      return in_pool("vkResetQueryPool", a.queryPool, a.firstQuery, a.queryCount);
    }
    case VkOp::vkCmdBeginQuery: {
      const auto& a = *static_cast<const VkArgs_vkCmdBeginQuery*>(args);
      return in_pool("vkCmdBeginQuery", a.queryPool, a.query, 1);
    }
    case VkOp::vkCmdEndQuery: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndQuery*>(args);
      return in_pool("vkCmdEndQuery", a.queryPool, a.query, 1);
    }
    case VkOp::vkCmdWriteTimestamp: {
      const auto& a = *static_cast<const VkArgs_vkCmdWriteTimestamp*>(args);
      return in_pool("vkCmdWriteTimestamp", a.queryPool, a.query, 1);
    }
    case VkOp::vkCmdWriteTimestamp2: {
      const auto& a = *static_cast<const VkArgs_vkCmdWriteTimestamp2*>(args);
      return in_pool("vkCmdWriteTimestamp2", a.queryPool, a.query, 1);
    }
    case VkOp::vkCmdBeginQueryIndexedEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdBeginQueryIndexedEXT*>(args);
      return in_pool("vkCmdBeginQueryIndexedEXT", a.queryPool, a.query, 1);
    }
    case VkOp::vkCmdEndQueryIndexedEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndQueryIndexedEXT*>(args);
      return in_pool("vkCmdEndQueryIndexedEXT", a.queryPool, a.query, 1);
    }
    case VkOp::vkGetQueryPoolResults: {
      const auto& a = *static_cast<const VkArgs_vkGetQueryPoolResults*>(args);
      return in_pool("vkGetQueryPoolResults", a.queryPool, a.firstQuery, a.queryCount);
    }
    default:
      return check_query_copy(args);
  }
}

// The most control points of a patch: the limit Vulkan requires of every
// device with tessellation (maxTessellationPatchSize, at least 32), and
// the most that lavapipe and the other drivers Conduit runs on offer.
constexpr uint32_t kMostPatchControlPoints = 32;

// Dynamic state that drivers size their patches and stipples by when the
// commands run: counts within what the spec allows. (Enumerated values and
// bitmasks, by which drivers index their tables, are the decoder's.)
wire::Status ResourceShapes::check_dynamic_state(uint32_t opcode, const void* args) const {
  bool known = true;
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdSetPatchControlPointsEXT: {
      const uint32_t points = static_cast<const VkArgs_vkCmdSetPatchControlPointsEXT*>(args)->patchControlPoints;
      known = points >= 1 && points <= kMostPatchControlPoints;
      break;
    }
    default: {  // vkCmdSetLineStippleEXT; section 28.13.1 "Line Stipple": a factor of 1-256
      const uint32_t factor = static_cast<const VkArgs_vkCmdSetLineStippleEXT*>(args)->lineStippleFactor;
      known = factor >= 1 && factor <= 256;
      break;
    }
  }
  if (!known) return refused(command_desc(opcode)->name, "of a value its type does not have");
  return {};
}

// Each query's results, `stride` apart, land inside the buffer (section
// 17.2 "Query Operation": values, then availability, of 4 or 8 bytes).
wire::Status ResourceShapes::check_query_copy(const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkCmdCopyQueryPoolResults*>(args);
  auto p = query_pools_.find(raw_handle(a.queryPool));
  if (p == query_pools_.end() || !fits(a.firstQuery, a.queryCount, p->second.count))
    return refused("vkCmdCopyQueryPoolResults", "of queries its pool does not have");
  WIRE_TRY_ASSIGN(dst, buffer(raw_handle(a.dstBuffer), "vkCmdCopyQueryPoolResults"));
  const uint64_t value_bytes = a.flags & VK_QUERY_RESULT_64_BIT ? 8 : 4;
  const uint64_t values = p->second.values + ((a.flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 1 : 0);
  uint64_t reach = 0;
  if (a.dstOffset % 4 || !strided_reach(a.dstOffset, a.queryCount, a.stride, values * value_bytes, &reach) ||
      reach > dst->size)
    return refused("vkCmdCopyQueryPoolResults", "of results past its buffer's end");
  return {};
}

}  // namespace host::vk
