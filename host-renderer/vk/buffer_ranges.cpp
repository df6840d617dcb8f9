// Buffer ranges of recorded commands, memory binds and query indices, each
// checked against the objects they name (Vulkan 1.3, sections 21.1 "Copy
// Commands" and 20.2 "Filling Buffers", 22.3 "Vertex Input Description",
// 21.4 "Indexed Drawing", 22 "Indirect Drawing", 12.7 "Resource Memory
// Association", 17 "Queries"): the driver copies, fills and reads them
// without looking, into and out of the renderer's own memory.
#include <algorithm>
#include <string>
#include <vector>

#include "vk/handle_table.h"
#include "vk/refusal.h"
#include "vk/resource_shapes.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// vkCmdUpdateBuffer's most bytes (VUID-vkCmdUpdateBuffer-dataSize-00037).
constexpr uint64_t kMostUpdateBytes = 65536;

// The bytes one indirect record of each command reads.
constexpr uint64_t kDrawRecord = sizeof(VkDrawIndirectCommand);
constexpr uint64_t kIndexedRecord = sizeof(VkDrawIndexedIndirectCommand);
constexpr uint64_t kDispatchRecord = sizeof(VkDispatchIndirectCommand);

// Bytes [start, end) of one allocation.
struct Span {
  uint64_t start;
  uint64_t end;
};

// Whether a span of `a` meets one of `b`: both sorted, then walked side by
// side, so that many regions cost no more than sorting them.
bool any_overlap(std::vector<Span> a, std::vector<Span> b) {
  auto by_start = [](const Span& x, const Span& y) { return x.start < y.start; };
  std::sort(a.begin(), a.end(), by_start);
  std::sort(b.begin(), b.end(), by_start);
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i].start < b[j].end && b[j].start < a[i].end) return true;
    if (a[i].end <= b[j].end)
      ++i;
    else
      ++j;
  }
  return false;
}

// A copy reads and writes the memory it names with memcpy (lavapipe), so
// what it reads must not be what it writes: VUID-VkCopyBufferInfo2-pRegions-00117,
// the same buffer or two bound to the same bytes.
template <typename Copy>
bool copies_overlap(const BufferShape& src, const BufferShape& dst, const Copy* regions, uint32_t count) {
  if (src.memory != dst.memory) return false;
  std::vector<Span> reads, writes;
  for (uint32_t i = 0; i < count; ++i) {
    const Copy& r = regions[i];
    reads.push_back({src.memory_offset + r.srcOffset, src.memory_offset + r.srcOffset + r.size});
    writes.push_back({dst.memory_offset + r.dstOffset, dst.memory_offset + r.dstOffset + r.size});
  }
  return any_overlap(std::move(reads), std::move(writes));
}

template <typename Copy>
wire::Status check_copies(const char* command, const BufferShape& src, const BufferShape& dst, const Copy* regions,
                          uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    const Copy& r = regions[i];
    if (r.size == 0 || !fits(r.srcOffset, r.size, src.size) || !fits(r.dstOffset, r.size, dst.size))
      return refused(command, "of a region past its buffer's end: region " + std::to_string(i));
  }
  if (copies_overlap(src, dst, regions, count)) return refused(command, "whose source and destination overlap");
  return {};
}

}  // namespace

// A buffer the guest made, with memory bound (a buffer without memory
// has no storage: the driver would copy through a null address).
wire::Result<const BufferShape*> ResourceShapes::buffer(uint64_t handle, const char* command) const {
  auto it = buffers_.find(handle);
  if (it == buffers_.end() || !it->second.memory) return refused(command, "of a buffer without memory");
  return &it->second;
}

uint64_t ResourceShapes::buffer_size(uint64_t handle) const {
  auto it = buffers_.find(handle);
  return it == buffers_.end() ? 0 : it->second.size;
}

wire::Status ResourceShapes::check_buffer_command(uint32_t opcode, const void* args) const {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdCopyBuffer: {
      const auto& a = *static_cast<const VkArgs_vkCmdCopyBuffer*>(args);
      WIRE_TRY_ASSIGN(src, buffer(raw_handle(a.srcBuffer), "vkCmdCopyBuffer"));
      WIRE_TRY_ASSIGN(dst, buffer(raw_handle(a.dstBuffer), "vkCmdCopyBuffer"));
      return check_copies("vkCmdCopyBuffer", *src, *dst, a.pRegions, a.regionCount);
    }
    case VkOp::vkCmdCopyBuffer2: {
      const VkCopyBufferInfo2& info = *static_cast<const VkArgs_vkCmdCopyBuffer2*>(args)->pCopyBufferInfo;
      WIRE_TRY_ASSIGN(src, buffer(raw_handle(info.srcBuffer), "vkCmdCopyBuffer2"));
      WIRE_TRY_ASSIGN(dst, buffer(raw_handle(info.dstBuffer), "vkCmdCopyBuffer2"));
      return check_copies("vkCmdCopyBuffer2", *src, *dst, info.pRegions, info.regionCount);
    }
    case VkOp::vkCmdUpdateBuffer: {
      const auto& a = *static_cast<const VkArgs_vkCmdUpdateBuffer*>(args);
      WIRE_TRY_ASSIGN(dst, buffer(raw_handle(a.dstBuffer), "vkCmdUpdateBuffer"));
      if (a.dataSize == 0 || a.dataSize > kMostUpdateBytes || a.dataSize % 4 || a.dstOffset % 4 ||
          !fits(a.dstOffset, a.dataSize, dst->size))
        return refused("vkCmdUpdateBuffer", "past its buffer's end, or of a size or offset it may not have");
      return {};
    }
    case VkOp::vkCmdFillBuffer: {
      const auto& a = *static_cast<const VkArgs_vkCmdFillBuffer*>(args);
      WIRE_TRY_ASSIGN(dst, buffer(raw_handle(a.dstBuffer), "vkCmdFillBuffer"));
      const bool whole = a.size == VK_WHOLE_SIZE && a.dstOffset < dst->size;
      if (a.dstOffset % 4 || (!whole && (a.size == 0 || a.size % 4 || !fits(a.dstOffset, a.size, dst->size))))
        return refused("vkCmdFillBuffer", "past its buffer's end, or of a size or offset it may not have");
      return {};
    }
    case VkOp::vkCmdBindVertexBuffers: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindVertexBuffers*>(args);
      for (uint32_t i = 0; i < a.bindingCount; ++i) {
        WIRE_TRY_ASSIGN(b, buffer(raw_handle(a.pBuffers[i]), "vkCmdBindVertexBuffers"));
        if (a.pOffsets[i] >= b->size) return refused("vkCmdBindVertexBuffers", "at an offset past its buffer's end");
      }
      return {};
    }
    case VkOp::vkCmdBindVertexBuffers2: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindVertexBuffers2*>(args);
      for (uint32_t i = 0; i < a.bindingCount; ++i) {
        WIRE_TRY_ASSIGN(b, buffer(raw_handle(a.pBuffers[i]), "vkCmdBindVertexBuffers2"));
        const uint64_t size = a.pSizes && a.pSizes[i] != VK_WHOLE_SIZE ? a.pSizes[i] : b->size - std::min(b->size, a.pOffsets[i]);
        if (a.pOffsets[i] >= b->size || !fits(a.pOffsets[i], size, b->size))
          return refused("vkCmdBindVertexBuffers2", "of a range past its buffer's end");
      }
      return {};
    }
    case VkOp::vkCmdBindIndexBuffer: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindIndexBuffer*>(args);
      WIRE_TRY_ASSIGN(b, buffer(raw_handle(a.buffer), "vkCmdBindIndexBuffer"));
      const uint64_t type = as_number(a.indexType);
      if (a.offset >= b->size ||
          (type != VK_INDEX_TYPE_UINT16 && type != VK_INDEX_TYPE_UINT32 && type != VK_INDEX_TYPE_UINT8_EXT))
        return refused("vkCmdBindIndexBuffer", "at an offset past its buffer's end, or of an index type not carried");
      return {};
    }
    default:
      return check_indirect(opcode, args);
  }
}

// Every record an indirect draw or dispatch reads lies inside a buffer made
// for indirect records (VUID-vkCmdDispatchIndirect-buffer-02709 and its
// siblings; the host copies an indirect dispatch's record out, which that
// usage lets it), and so does the word a count or a conditional rendering
// predicate is.
wire::Status ResourceShapes::check_indirect(uint32_t opcode, const void* args) const {
  auto check = [this](const char* command, VkBuffer handle, uint64_t offset, uint64_t count, uint64_t stride,
                      uint64_t record) -> wire::Status {
    WIRE_TRY_ASSIGN(b, buffer(raw_handle(handle), command));
    uint64_t reach = 0;
    if (!(b->usage & VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT)) return refused(command, "of a buffer not made for it");
    if (offset % 4 || (count > 1 && (stride < record || stride % 4)) ||
        !strided_reach(offset, count, stride, record, &reach) || reach > b->size)
      return refused(command, "of records past its buffer's end");
    return {};
  };
  auto check_count = [this](const char* command, VkBuffer handle, uint64_t offset) -> wire::Status {
    WIRE_TRY_ASSIGN(b, buffer(raw_handle(handle), command));
    if (offset % 4 || !fits(offset, 4, b->size)) return refused(command, "of a count past its buffer's end");
    return {};
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdDrawIndirect: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndirect*>(args);
      return check("vkCmdDrawIndirect", a.buffer, a.offset, a.drawCount, a.stride, kDrawRecord);
    }
    case VkOp::vkCmdDrawIndexedIndirect: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndexedIndirect*>(args);
      return check("vkCmdDrawIndexedIndirect", a.buffer, a.offset, a.drawCount, a.stride, kIndexedRecord);
    }
    case VkOp::vkCmdDrawIndirectCount: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndirectCount*>(args);
      WIRE_TRY(check_count("vkCmdDrawIndirectCount", a.countBuffer, a.countBufferOffset));
      return check("vkCmdDrawIndirectCount", a.buffer, a.offset, a.maxDrawCount, a.stride, kDrawRecord);
    }
    case VkOp::vkCmdDrawIndexedIndirectCount: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndexedIndirectCount*>(args);
      WIRE_TRY(check_count("vkCmdDrawIndexedIndirectCount", a.countBuffer, a.countBufferOffset));
      return check("vkCmdDrawIndexedIndirectCount", a.buffer, a.offset, a.maxDrawCount, a.stride, kIndexedRecord);
    }
    case VkOp::vkCmdDispatchIndirect: {
      const auto& a = *static_cast<const VkArgs_vkCmdDispatchIndirect*>(args);
      return check("vkCmdDispatchIndirect", a.buffer, a.offset, 1, kDispatchRecord, kDispatchRecord);
    }
    case VkOp::vkCmdBeginConditionalRenderingEXT: {  // the 32-bit predicate (VK_EXT_conditional_rendering)
      const VkConditionalRenderingBeginInfoEXT& info =
          *static_cast<const VkArgs_vkCmdBeginConditionalRenderingEXT*>(args)->pConditionalRenderingBegin;
      return check_count("vkCmdBeginConditionalRenderingEXT", info.buffer, info.offset);
    }
    default:
      return {};
  }
}

// VK_EXT_transform_feedback (section 29): the driver writes vertices into
// each bound range and a 32-bit byte count into each counter, and a draw
// reads its vertex count from one; each of a buffer made for that use.
wire::Status ResourceShapes::check_feedback_buffers(uint32_t opcode, const void* args) const {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBindTransformFeedbackBuffersEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindTransformFeedbackBuffersEXT*>(args);
      for (uint32_t i = 0; i < a.bindingCount; ++i) {
        WIRE_TRY_ASSIGN(b, buffer(raw_handle(a.pBuffers[i]), "vkCmdBindTransformFeedbackBuffersEXT"));
        const uint64_t offset = a.pOffsets[i];
        const bool whole = !a.pSizes || a.pSizes[i] == VK_WHOLE_SIZE;
        if (!(b->usage & VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT) || offset % 4 || offset >= b->size ||
            (!whole && !fits(offset, a.pSizes[i], b->size)))
          return refused("vkCmdBindTransformFeedbackBuffersEXT",
                         "of a range past its buffer's end, or of a buffer not made for transform feedback");
      }
      return {};
    }
    case VkOp::vkCmdBeginTransformFeedbackEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdBeginTransformFeedbackEXT*>(args);
      return check_counters("vkCmdBeginTransformFeedbackEXT", a.pCounterBuffers, a.pCounterBufferOffsets,
                            a.counterBufferCount);
    }
    case VkOp::vkCmdEndTransformFeedbackEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndTransformFeedbackEXT*>(args);
      return check_counters("vkCmdEndTransformFeedbackEXT", a.pCounterBuffers, a.pCounterBufferOffsets,
                            a.counterBufferCount);
    }
    default: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndirectByteCountEXT*>(args);
      WIRE_TRY_ASSIGN(b, buffer(raw_handle(a.counterBuffer), "vkCmdDrawIndirectByteCountEXT"));
      if (!(b->usage & VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) || a.counterBufferOffset % 4 ||
          !fits(a.counterBufferOffset, 4, b->size))
        return refused("vkCmdDrawIndirectByteCountEXT", "of a count past its buffer's end, or of a buffer not made for it");
      return {};
    }
  }
}

// Counter buffers may be null (the count starts at 0 and is not kept);
// their offsets are 0 when none are given.
wire::Status ResourceShapes::check_counters(const char* command, const VkBuffer* buffers, const VkDeviceSize* offsets,
                                            uint32_t count) const {
  for (uint32_t i = 0; buffers && i < count; ++i) {
    if (!buffers[i]) continue;
    WIRE_TRY_ASSIGN(b, buffer(raw_handle(buffers[i]), command));
    const uint64_t offset = offsets ? offsets[i] : 0;
    if (!(b->usage & VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT) || offset % 4 ||
        !fits(offset, 4, b->size))
      return refused(command, "of a counter past its buffer's end, or of a buffer not made for counters");
  }
  return {};
}

}  // namespace host::vk
