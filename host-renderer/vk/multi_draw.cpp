// VK_EXT_multi_draw's draws (Vulkan 1.3, section 21.3 "Programmable
// Primitive Shading"): `drawCount` records `stride` bytes apart, which the
// wire carries as the bytes they span (the generated codec, from vk.xml's
// stride), at most maxMultiDrawCount of them, and for indexed draws each
// draw's indices inside the bound index buffer, as vkCmdDrawIndexed's are.
#include <cstring>
#include <string>

#include "vk/refusal.h"
#include "vk/resource_shapes.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// Records of whole words (the driver reads their numbers in place), each
// holding one, where more than one is read.
bool records_fit(uint32_t draws, uint32_t stride, uint32_t record_bytes) {
  return draws <= 1 || (stride % 4 == 0 && stride >= record_bytes);
}

}  // namespace

wire::Status ResourceShapes::check_multi_draw_records(uint32_t opcode, const void* args) const {
  if (static_cast<VkOp>(opcode) == VkOp::vkCmdDrawMultiEXT) {
    const auto& a = *static_cast<const VkArgs_vkCmdDrawMultiEXT*>(args);
    if (!records_fit(a.drawCount, a.stride, sizeof(VkMultiDrawInfoEXT)))
      return refused("vkCmdDrawMultiEXT", "of a stride that is not whole words holding a record");
    return {};
  }
  const auto& a = *static_cast<const VkArgs_vkCmdDrawMultiIndexedEXT*>(args);
  if (!records_fit(a.drawCount, a.stride, sizeof(VkMultiDrawIndexedInfoEXT)))
    return refused("vkCmdDrawMultiIndexedEXT", "of a stride that is not whole words holding a record");
  return {};
}

// The count against the device's limit, and each indexed draw's indices
// against what the bound index buffer holds (the records' bytes were
// checked present by the codec, their stride by check_multi_draw_records).
wire::Status VkHandler::check_multi_draw(const Recording& r, uint32_t opcode, const void* args) {
  if (static_cast<VkOp>(opcode) == VkOp::vkCmdDrawMultiEXT) {
    const auto& a = *static_cast<const VkArgs_vkCmdDrawMultiEXT*>(args);
    if (a.drawCount > r.limits.multi_draws) return refused("vkCmdDrawMultiEXT", "of more draws than maxMultiDrawCount");
    if (a.drawCount && !a.pVertexInfo) return refused("vkCmdDrawMultiEXT", "of a missing array of draws");
    return {};
  }
  const auto& a = *static_cast<const VkArgs_vkCmdDrawMultiIndexedEXT*>(args);
  if (a.drawCount > r.limits.multi_draws)
    return refused("vkCmdDrawMultiIndexedEXT", "of more draws than maxMultiDrawCount");
  if (a.drawCount && !a.pIndexInfo) return refused("vkCmdDrawMultiIndexedEXT", "of a missing array of draws");
  const auto* records = reinterpret_cast<const std::byte*>(a.pIndexInfo);
  for (uint32_t i = 0; i < a.drawCount; ++i) {
    VkMultiDrawIndexedInfoEXT draw;
    std::memcpy(&draw, records + uint64_t{i} * a.stride, sizeof draw);
    if (uint64_t{draw.firstIndex} + draw.indexCount > r.index_room)
      return refused("vkCmdDrawMultiIndexedEXT", "of indices past its index buffer's end: draw " + std::to_string(i));
  }
  return {};
}

}  // namespace host::vk
