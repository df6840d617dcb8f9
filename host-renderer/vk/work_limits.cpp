// How much work one recorded command asks of the driver. A draw of 2^32
// vertices or a dispatch of 2^32 workgroups a side is a few bytes on the
// wire and hours of a software driver's time (a GPU's too): counts are held
// to the spec's limits (maxComputeWorkGroupCount) and to the host's own
// (--max-draw-vertices, --max-dispatch-groups), as GL draws are. The counts
// an indirect dispatch reads from a buffer are clamped on the device to the
// same limits (dispatch_clamps.h); an indirect draw's are not yet bounded.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// Vertices (or indices) of every draw of a multi-draw, each its records'
// count; records are `stride` bytes apart (checked present by the codec).
template <typename Record>
uint64_t multi_draw_counts(const void* records, uint32_t draws, uint32_t stride, uint32_t Record::*count) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < draws; ++i) {
    Record r;
    std::memcpy(&r, static_cast<const std::byte*>(records) + uint64_t{i} * stride, sizeof r);
    total += r.*count;
  }
  return total;
}

// Whether vertices x instances exceeds the limit, by division: the product
// of two counts of 2^32 - 1, or of a multi-draw's sum, may not fit.
bool over(uint64_t vertices, uint32_t instances, uint64_t limit) {
  return instances != 0 && vertices > limit / instances;
}

}  // namespace

wire::Status VkHandler::check_draw_work(uint32_t opcode, const void* args) const {
  const uint64_t limit = account_.limits.max_draw_vertices;
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdDraw: {
      const auto& a = *static_cast<const VkArgs_vkCmdDraw*>(args);
      if (over(a.vertexCount, a.instanceCount, limit)) return refused("vkCmdDraw", "of more vertices than the host's limit");
      return {};
    }
    case VkOp::vkCmdDrawIndexed: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndexed*>(args);
      if (over(a.indexCount, a.instanceCount, limit)) return refused("vkCmdDrawIndexed", "of more vertices than the host's limit");
      return {};
    }
    case VkOp::vkCmdDrawMultiEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawMultiEXT*>(args);
      const uint64_t vertices = multi_draw_counts(a.pVertexInfo, a.drawCount, a.stride, &VkMultiDrawInfoEXT::vertexCount);
      if (over(vertices, a.instanceCount, limit)) return refused("vkCmdDrawMultiEXT", "of more vertices than the host's limit");
      return {};
    }
    case VkOp::vkCmdDrawMultiIndexedEXT: {
      const auto& a = *static_cast<const VkArgs_vkCmdDrawMultiIndexedEXT*>(args);
      const uint64_t indices = multi_draw_counts(a.pIndexInfo, a.drawCount, a.stride, &VkMultiDrawIndexedInfoEXT::indexCount);
      if (over(indices, a.instanceCount, limit))
        return refused("vkCmdDrawMultiIndexedEXT", "of more vertices than the host's limit");
      return {};
    }
    case VkOp::vkCmdDrawIndirectByteCountEXT: {
      // Its vertex count is in a buffer; its instances are named here.
      const auto& a = *static_cast<const VkArgs_vkCmdDrawIndirectByteCountEXT*>(args);
      if (a.instanceCount > limit) return refused("vkCmdDrawIndirectByteCountEXT", "of more instances than the host's limit");
      return {};
    }
    default:
      return {};
  }
}

// Each side within maxComputeWorkGroupCount past its base
// (VUID-vkCmdDispatchBase-groupCountX-00421), and all of them within the
// host's limit on workgroups.
wire::Status VkHandler::check_dispatch_work(const Recording& r, uint32_t opcode, const void* args) const {
  uint32_t base[3] = {0, 0, 0};
  uint32_t count[3];
  const char* name = "vkCmdDispatch";
  if (static_cast<VkOp>(opcode) == VkOp::vkCmdDispatch) {
    const auto& a = *static_cast<const VkArgs_vkCmdDispatch*>(args);
    count[0] = a.groupCountX, count[1] = a.groupCountY, count[2] = a.groupCountZ;
  } else {
    const auto& a = *static_cast<const VkArgs_vkCmdDispatchBase*>(args);
    base[0] = a.baseGroupX, base[1] = a.baseGroupY, base[2] = a.baseGroupZ;
    count[0] = a.groupCountX, count[1] = a.groupCountY, count[2] = a.groupCountZ;
    name = "vkCmdDispatchBase";
  }
  for (int i = 0; i < 3; ++i)
    if (uint64_t{base[i]} + count[i] > r.limits.compute_groups[i])
      return refused(name, "of workgroups past the device's maxComputeWorkGroupCount");
  if (count[0] == 0 || count[1] == 0 || count[2] == 0) return {};
  const uint64_t limit = account_.limits.max_dispatch_groups;
  if (count[0] > limit / count[1] || uint64_t{count[0]} * count[1] > limit / count[2])
    return refused(name, "of more workgroups than the host's limit");
  return {};
}

// The dispatch reads the host's clamped copy of its record, the guest's
// compute state bound again after the clamp's own.
wire::Status VkHandler::clamp_indirect_dispatch(void* args) {
  auto& a = *static_cast<VkArgs_vkCmdDispatchIndirect*>(args);
  const Recording& r = *recording_now_;
  const auto device = reinterpret_cast<VkDevice>(r.device);
  const uint64_t most = std::min<uint64_t>(account_.limits.max_dispatch_groups, UINT32_MAX);
  const std::array<uint32_t, 4> limits = {r.limits.compute_groups[0], r.limits.compute_groups[1],
                                          r.limits.compute_groups[2], static_cast<uint32_t>(most)};
  auto slot = dispatch_clamps_.clamp(device, device_gpus_.at(device), a.commandBuffer, a.buffer, a.offset, limits);
  if (!slot) return refused("vkCmdDispatchIndirect", "on a device where the host could not make its clamp");
  r.compute.bind_again(dispatch_, a.commandBuffer);
  a.buffer = slot->buffer;
  a.offset = slot->offset;
  return {};
}

}  // namespace host::vk
