// What a driver reads or writes by the state of other objects, past what a
// command's own counts say (valid usage the codec cannot see): the host
// gives it room enough, so a guest that breaks the rule gets what it
// asked for in its own results, never the renderer's memory.
#include <cstring>

#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using wire::Errc;
using wire::make_error;
using namespace wire::vk;

namespace {

// The most one query writes: eleven pipeline statistics and its
// availability, each 64-bit.
constexpr uint64_t kMostQueryBytes = 12 * 8;

}  // namespace

wire::Status VkHandler::fit_driver_reads(uint32_t opcode, void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkGetQueryPoolResults: {
      // Written `stride` apart for each query, whatever `dataSize` says.
      auto& a = *static_cast<VkArgs_vkGetQueryPoolResults*>(args);
      if (!a.queryCount || !a.pData) return {};
      uint64_t reach = 0;
      if (__builtin_mul_overflow(uint64_t{a.queryCount} - 1, a.stride, &reach) ||
          __builtin_add_overflow(reach, kMostQueryBytes, &reach))
        return make_error(Errc::kOverflow, "vkGetQueryPoolResults: queries past any buffer");
      if (reach <= a.dataSize) return {};
      auto room = arena_.alloc(1, reach, 0);  // zeroed; the reply takes dataSize bytes of it
      if (!room) return room.error();
      a.pData = *room;
      return {};
    }
    case VkOp::vkCmdBeginRenderPass:
      return fit_clear_values(static_cast<VkArgs_vkCmdBeginRenderPass*>(args)->pRenderPassBegin);
    case VkOp::vkCmdBeginRenderPass2:
      return fit_clear_values(static_cast<VkArgs_vkCmdBeginRenderPass2*>(args)->pRenderPassBegin);
    default:
      return {};
  }
}

// A clear value is read for each attachment the render pass clears, by its
// index: every attachment of the render pass gets one.
wire::Status VkHandler::fit_clear_values(const VkRenderPassBeginInfo* begin) {
  auto it = render_passes_.find(raw_handle(begin->renderPass));
  if (it == render_passes_.end() || begin->clearValueCount >= it->second.attachments) return {};
  const uint32_t attachments = it->second.attachments;
  auto room = arena_.alloc(attachments, sizeof(VkClearValue), 0);
  if (!room) return room.error();
  if (begin->clearValueCount) std::memcpy(*room, begin->pClearValues, begin->clearValueCount * sizeof(VkClearValue));
  auto* ours = const_cast<VkRenderPassBeginInfo*>(begin);  // decoded into the arena: the host's own
  ours->pClearValues = static_cast<const VkClearValue*>(*room);
  ours->clearValueCount = attachments;
  return {};
}

}  // namespace host::vk
