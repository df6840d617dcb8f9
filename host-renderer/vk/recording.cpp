// What each command buffer is doing: recording or not, inside a render pass
// (and which subpass) or not, which pipelines are bound. Drivers trust the
// spec's rules on these (lavapipe ends a render pass that was never begun by
// reading through a null pointer), so the host refuses a command that breaks
// them, and the guest loses its Vulkan rather than the renderer its driver.
// Where a command may be recorded comes from vk.xml (CommandDesc::recorded).
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "vk/chain.h"
#include "vk/dynamic_state3.h"
#include "vk/refusal.h"
#include "vk/submitted.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;
using wire::Errc;
using wire::make_error;

namespace {

// A command's first parameter, the command buffer it records into.
VkCommandBuffer recorded_into(const CommandDesc& cmd, const void* args) {
  VkCommandBuffer cb;
  std::memcpy(&cb, static_cast<const std::byte*>(args) + cmd.params[0].offset, sizeof cb);
  return cb;
}

// Each command buffer a vkQueueSubmit or vkQueueSubmit2 names.
template <typename Each>
void each_submitted(uint32_t opcode, const void* args, Each each) {
  if (static_cast<VkOp>(opcode) == VkOp::vkQueueSubmit) {
    const auto& a = *static_cast<const VkArgs_vkQueueSubmit*>(args);
    each_submitted_buffer(a.pSubmits, a.submitCount, each);
  } else {
    const auto& a = *static_cast<const VkArgs_vkQueueSubmit2*>(args);
    each_submitted_buffer(a.pSubmits, a.submitCount, each);
  }
}

const VkRenderPassBeginInfo* render_pass_begin(uint32_t opcode, const void* args) {
  if (static_cast<VkOp>(opcode) == VkOp::vkCmdBeginRenderPass)
    return static_cast<const VkArgs_vkCmdBeginRenderPass*>(args)->pRenderPassBegin;
  return static_cast<const VkArgs_vkCmdBeginRenderPass2*>(args)->pRenderPassBegin;
}

}  // namespace

wire::Status VkHandler::check_recording(uint32_t opcode, const CommandDesc& cmd, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkBeginCommandBuffer:
      return check_begin(args);
    case VkOp::vkEndCommandBuffer: {
      auto it = recordings_.find(static_cast<const VkArgs_vkEndCommandBuffer*>(args)->commandBuffer);
      if (it == recordings_.end() || it->second.stage != Recording::Stage::kRecording)
        return refused(cmd.name, "of a command buffer that is not recording");
      if (it->second.within == Recording::Within::kRenderPass || it->second.within == Recording::Within::kRendering)
        return refused(cmd.name, "inside a render pass");
      if (!it->second.active_queries.empty()) return refused(cmd.name, "with a query still active");
      return {};
    }
    case VkOp::vkQueueSubmit:
    case VkOp::vkQueueSubmit2:
      return check_submits(opcode, args);
    default:
      return cmd.recorded.scope == RenderPassScope::kNone ? wire::Status{} : check_command(cmd, opcode, args);
  }
}

wire::Status VkHandler::check_begin(const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkBeginCommandBuffer*>(args);
  auto it = recordings_.find(a.commandBuffer);
  if (it == recordings_.end() || it->second.stage == Recording::Stage::kRecording)
    return refused("vkBeginCommandBuffer", "of a command buffer that is recording already");
  if (!it->second.secondary) return {};
  const VkCommandBufferInheritanceInfo* inherit = a.pBeginInfo->pInheritanceInfo;
  if (!inherit) return refused("vkBeginCommandBuffer", "of a secondary command buffer without inheritance info");
  const bool continues = a.pBeginInfo->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
  if (!continues || find_in_chain(inherit->pNext, VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO))
    return {};
  auto pass = render_passes_.find(raw_handle(inherit->renderPass));
  if (pass == render_passes_.end() || inherit->subpass >= pass->second.subpasses)
    return refused("vkBeginCommandBuffer", "continuing no render pass, or a subpass it does not have");
  return {};
}

// Keeps the command buffer's state for note_recording, the one lookup a
// recorded command costs.
wire::Status VkHandler::check_command(const CommandDesc& cmd, uint32_t opcode, const void* args) {
  const VkCommandBuffer cb = recorded_into(cmd, args);
  if (cb != recording_now_key_) {  // a frame's commands mostly go into one buffer: one lookup for them
    auto it = recordings_.find(cb);
    recording_now_key_ = it == recordings_.end() ? VK_NULL_HANDLE : cb;
    recording_now_ = it == recordings_.end() ? nullptr : &it->second;
  }
  if (!recording_now_ || recording_now_->stage != Recording::Stage::kRecording)
    return refused(cmd.name, "into a command buffer that is not recording");
  const Recording& r = *recording_now_;
  if (r.secondary ? !cmd.recorded.secondary : !cmd.recorded.primary)
    return refused(cmd.name, r.secondary ? "in a secondary command buffer" : "in a primary command buffer");
  const bool inside = r.within != Recording::Within::kNone;
  if (cmd.recorded.scope == RenderPassScope::kInside && !inside) return refused(cmd.name, "outside a render pass");
  if (cmd.recorded.scope == RenderPassScope::kOutside && inside) return refused(cmd.name, "inside a render pass");
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdNextSubpass:
    case VkOp::vkCmdNextSubpass2:
      if (r.within != Recording::Within::kRenderPass || r.subpass + 1 >= r.subpasses)
        return refused(cmd.name, "after the render pass's last subpass");
      return check_query_state(r, opcode, args);
    case VkOp::vkCmdEndRenderPass:
    case VkOp::vkCmdEndRenderPass2:
      if (r.within != Recording::Within::kRenderPass || r.subpass + 1 != r.subpasses)
        return refused(cmd.name, "before the last subpass, or of a render pass this buffer did not begin");
      return check_query_state(r, opcode, args);
    case VkOp::vkCmdEndRendering:
      if (r.within != Recording::Within::kRendering) return refused(cmd.name, "of rendering this buffer did not begin");
      return check_query_state(r, opcode, args);
    case VkOp::vkCmdBeginQuery:
    case VkOp::vkCmdEndQuery:
    case VkOp::vkCmdResetQueryPool:
      return check_query_state(r, opcode, args);
    case VkOp::vkCmdExecuteCommands:
      return check_executed(r, args);
    case VkOp::vkCmdBindPipeline:
      return check_bind(args);
    case VkOp::vkCmdPushConstants:
      return check_push_constants(r, args);
    case VkOp::vkCmdSetVertexInputEXT:
      return check_set_vertex_input(args, r.limits.vertex_input);
    case VkOp::vkCmdSetColorWriteEnableEXT:  // VUID-vkCmdSetColorWriteEnableEXT-attachmentCount-06656
      if (static_cast<const VkArgs_vkCmdSetColorWriteEnableEXT*>(args)->attachmentCount > r.limits.color_attachments)
        return refused(cmd.name, "of more attachments than the device's maxColorAttachments");
      return {};
    case VkOp::vkCmdBindVertexBuffers:
    case VkOp::vkCmdBindVertexBuffers2:
    case VkOp::vkCmdSetViewport:
    case VkOp::vkCmdSetScissor:
    case VkOp::vkCmdSetViewportWithCount:
    case VkOp::vkCmdSetScissorWithCount:
      return check_indexed_state(r, opcode, args);
    case VkOp::vkCmdDraw:
      WIRE_TRY(check_draw_work(opcode, args));
      break;
    case VkOp::vkCmdDrawIndexed:
      WIRE_TRY(check_indices(r, args));
      WIRE_TRY(check_draw_work(opcode, args));
      break;
    case VkOp::vkCmdDispatch:
    case VkOp::vkCmdDispatchBase:
      WIRE_TRY(check_dispatch_work(r, opcode, args));
      break;
    case VkOp::vkCmdBindTransformFeedbackBuffersEXT:
    case VkOp::vkCmdBeginTransformFeedbackEXT:
    case VkOp::vkCmdEndTransformFeedbackEXT:
    case VkOp::vkCmdBeginQueryIndexedEXT:
    case VkOp::vkCmdEndQueryIndexedEXT:
      return check_transform_feedback(r, opcode, args);
    case VkOp::vkCmdDrawIndirectByteCountEXT:
      WIRE_TRY(check_transform_feedback(r, opcode, args));
      WIRE_TRY(check_draw_work(opcode, args));
      break;
    case VkOp::vkCmdDrawMultiEXT:
    case VkOp::vkCmdDrawMultiIndexedEXT:
      WIRE_TRY(check_multi_draw(r, opcode, args));
      WIRE_TRY(check_draw_work(opcode, args));
      break;
    case VkOp::vkCmdBeginRenderPass:
    case VkOp::vkCmdBeginRenderPass2:
      return check_render_pass_begin(*render_pass_begin(opcode, args));
    default:
      if (is_dynamic_state3(opcode)) return check_dynamic_state3(r, opcode, args);
      break;
  }
  if (cmd.recorded.runs == Pipeline::kGraphics && !r.graphics_bound)
    return refused(cmd.name, "with no graphics pipeline bound");
  if (cmd.recorded.runs == Pipeline::kCompute && !r.compute_bound)
    return refused(cmd.name, "with no compute pipeline bound");
  return {};
}

// The indices a draw reads lie in the bound index buffer: drivers fetch
// them without looking.
wire::Status VkHandler::check_indices(const Recording& r, const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCmdDrawIndexed*>(args);
  if (uint64_t{a.firstIndex} + a.indexCount > r.index_room)
    return refused("vkCmdDrawIndexed", "of indices past its index buffer's end");
  return {};
}

// A query is begun once until it ends, ended only while active, in the
// subpass it began in, and reset only while not active (section 17.2
// "Query Operation"); a subpass or a render pass ends only when the queries
// begun inside it have.
wire::Status VkHandler::check_query_state(const Recording& r, uint32_t opcode, const void* args) {
  const auto& active = r.active_queries;
  const bool inside = r.within != Recording::Within::kNone;
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBeginQuery: {
      const auto& a = *static_cast<const VkArgs_vkCmdBeginQuery*>(args);
      const uint64_t pool = raw_handle(a.queryPool);
      if (std::any_of(active.begin(), active.end(), [&](const auto& q) { return q.pool == pool; }))
        return refused("vkCmdBeginQuery", "of a pool with a query active already");
      if (r.graphics_pushed && !r.graphics_bound)
        return refused("vkCmdBeginQuery", "after graphics push constants, before any graphics pipeline is bound");
      return {};
    }
    case VkOp::vkCmdEndQuery: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndQuery*>(args);
      const uint64_t pool = raw_handle(a.queryPool);
      auto it = std::find_if(active.begin(), active.end(),
                             [&](const auto& q) { return q.pool == pool && q.query == a.query; });
      if (it == active.end() || it->in_render_pass != inside || (inside && it->subpass != r.subpass))
        return refused("vkCmdEndQuery", "of a query not active here");
      return {};
    }
    case VkOp::vkCmdResetQueryPool: {
      const auto& a = *static_cast<const VkArgs_vkCmdResetQueryPool*>(args);
      const uint64_t pool = raw_handle(a.queryPool);
      if (std::any_of(active.begin(), active.end(), [&](const auto& q) {
            return q.pool == pool && q.query >= a.firstQuery && q.query - a.firstQuery < a.queryCount;
          }))
        return refused("vkCmdResetQueryPool", "of an active query");
      return {};
    }
    default:  // the end of a subpass or a render pass
      if (std::any_of(active.begin(), active.end(), [](const auto& q) { return q.in_render_pass; }))
        return refused(command_desc(opcode)->name, "with a query begun inside the render pass still active");
      if (r.feedback_active) return refused(command_desc(opcode)->name, "with transform feedback still active");
      return {};
  }
}

// Drivers copy the values into push constant storage of the device's size
// at `offset`, trusting the range (valid usage): it is checked here.
wire::Status VkHandler::check_push_constants(const Recording& r, const void* args) {
  const auto& a = *static_cast<const VkArgs_vkCmdPushConstants*>(args);
  if (a.size == 0 || a.offset % 4 || a.size % 4 || uint64_t{a.offset} + a.size > r.limits.push_constant_bytes)
    return refused("vkCmdPushConstants", "outside the device's push constant range");
  return {};
}

// Vertex buffers, viewports and scissors are kept in arrays of the
// device's limit, indexed by the first one a command names (lavapipe
// writes them there without looking).
wire::Status VkHandler::check_indexed_state(const Recording& r, uint32_t opcode, const void* args) {
  const Recording::Limits& room = r.limits;
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBindVertexBuffers: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindVertexBuffers*>(args);
      if (!fits(a.firstBinding, a.bindingCount, room.vertex_input.bindings))
        return refused("vkCmdBindVertexBuffers", "of bindings past the device's maxVertexInputBindings");
      return {};
    }
    case VkOp::vkCmdBindVertexBuffers2: {
      const auto& a = *static_cast<const VkArgs_vkCmdBindVertexBuffers2*>(args);
      if (!fits(a.firstBinding, a.bindingCount, room.vertex_input.bindings))
        return refused("vkCmdBindVertexBuffers2", "of bindings past the device's maxVertexInputBindings");
      return {};
    }
    case VkOp::vkCmdSetViewport: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetViewport*>(args);
      if (!fits(a.firstViewport, a.viewportCount, room.viewports))
        return refused("vkCmdSetViewport", "of viewports past the device's maxViewports");
      return {};
    }
    case VkOp::vkCmdSetScissor: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetScissor*>(args);
      if (!fits(a.firstScissor, a.scissorCount, room.viewports))
        return refused("vkCmdSetScissor", "of scissors past the device's maxViewports");
      return {};
    }
    case VkOp::vkCmdSetViewportWithCount: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetViewportWithCount*>(args);
      if (!fits(0, a.viewportCount, room.viewports))
        return refused("vkCmdSetViewportWithCount", "of more viewports than the device's maxViewports");
      return {};
    }
    default: {
      const auto& a = *static_cast<const VkArgs_vkCmdSetScissorWithCount*>(args);
      if (!fits(0, a.scissorCount, room.viewports))
        return refused("vkCmdSetScissorWithCount", "of more scissors than the device's maxViewports");
      return {};
    }
  }
}

// Secondaries run whole: recorded and ended, made to continue a render pass
// exactly when the primary is inside one.
wire::Status VkHandler::check_executed(const Recording& primary, const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkCmdExecuteCommands*>(args);
  const bool inside = primary.within != Recording::Within::kNone;
  for (uint32_t i = 0; i < a.commandBufferCount; ++i) {
    auto it = recordings_.find(a.pCommandBuffers[i]);
    if (it == recordings_.end() || !it->second.secondary || it->second.stage != Recording::Stage::kExecutable)
      return refused("vkCmdExecuteCommands", "of a command buffer that is not a recorded secondary");
    if ((it->second.within == Recording::Within::kContinued) != inside)
      return refused("vkCmdExecuteCommands", inside ? "of a secondary that does not continue the render pass"
                                                    : "of a secondary made for a render pass, outside one");
  }
  return {};
}

wire::Status VkHandler::check_submits(uint32_t opcode, const void* args) {
  wire::Status status;
  auto check = [&](VkCommandBuffer cb) {
    auto it = recordings_.find(cb);
    if (status && (it == recordings_.end() || it->second.secondary || it->second.stage != Recording::Stage::kExecutable))
      status = refused("vkQueueSubmit", "of a command buffer that is not a recorded primary");
    if (status) status = check_uses_live(it->second);
  };
  each_submitted(opcode, args, check);
  return status;
}

// After the command ran.
void VkHandler::note_recording(uint32_t opcode, const CommandDesc& cmd, const void* args) {
  const auto op = static_cast<VkOp>(opcode);
  if (op == VkOp::vkFreeCommandBuffers || op == VkOp::vkDestroyCommandPool || op == VkOp::vkDestroyDevice) {
    recording_now_key_ = VK_NULL_HANDLE;  // its entry may go
    recording_now_ = nullptr;
  }
  switch (op) {
    case VkOp::vkAllocateCommandBuffers: {
      const auto& a = *static_cast<const VkArgs_vkAllocateCommandBuffers*>(args);
      const bool secondary = as_number(a.pAllocateInfo->level) == VK_COMMAND_BUFFER_LEVEL_SECONDARY;
      for (uint32_t i = 0; i < a.pAllocateInfo->commandBufferCount; ++i)
        recordings_[a.pCommandBuffers[i]] = {.device = raw_handle(a.device), .secondary = secondary,
                                             .limits = device_limits_[a.device]};
      break;
    }
    case VkOp::vkFreeCommandBuffers: {
      const auto& a = *static_cast<const VkArgs_vkFreeCommandBuffers*>(args);
      for (uint32_t i = 0; a.pCommandBuffers && i < a.commandBufferCount; ++i) recordings_.erase(a.pCommandBuffers[i]);
      break;
    }
    case VkOp::vkResetCommandPool:
      reset_recordings_of_pool(raw_handle(static_cast<const VkArgs_vkResetCommandPool*>(args)->commandPool), false);
      break;
    case VkOp::vkDestroyCommandPool:
      reset_recordings_of_pool(raw_handle(static_cast<const VkArgs_vkDestroyCommandPool*>(args)->commandPool), true);
      break;
    case VkOp::vkDestroyDevice: {
      const uint64_t device = raw_handle(static_cast<const VkArgs_vkDestroyDevice*>(args)->device);
      std::erase_if(recordings_, [device](const auto& entry) { return entry.second.device == device; });
      break;
    }
    case VkOp::vkResetCommandBuffer: {
      Recording& r = recordings_[static_cast<const VkArgs_vkResetCommandBuffer*>(args)->commandBuffer];
      r = r.fresh();
      break;
    }
    case VkOp::vkBeginCommandBuffer: {
      const auto& a = *static_cast<const VkArgs_vkBeginCommandBuffer*>(args);
      Recording& r = recordings_[a.commandBuffer];
      const VkCommandBufferUsageFlags flags = a.pBeginInfo->flags;
      const bool continues = r.secondary && (flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
      r = r.fresh();
      r.stage = Recording::Stage::kRecording;
      r.within = continues ? Recording::Within::kContinued : Recording::Within::kNone;
      r.one_time = (flags & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0;
      break;
    }
    case VkOp::vkEndCommandBuffer: {
      Recording& r = recordings_[static_cast<const VkArgs_vkEndCommandBuffer*>(args)->commandBuffer];
      r.stage = Recording::Stage::kExecutable;
      keep_uses(r, opcode, args);
      break;
    }
    case VkOp::vkQueueSubmit:
    case VkOp::vkQueueSubmit2:
      note_submitted(opcode, args);
      break;
    default:
      if (cmd.recorded.scope != RenderPassScope::kNone) note_recorded(*recording_now_, opcode, args);
      break;
  }
}

void VkHandler::note_recorded(Recording& r, uint32_t opcode, const void* args) {
  r.compute.note(opcode, args);
  keep_uses(r, opcode, args);
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBeginRenderPass:
    case VkOp::vkCmdBeginRenderPass2: {
      auto pass = render_passes_.find(raw_handle(render_pass_begin(opcode, args)->renderPass));
      r.within = Recording::Within::kRenderPass;
      r.subpass = 0;
      r.subpasses = pass == render_passes_.end() ? 0 : pass->second.subpasses;
      break;
    }
    case VkOp::vkCmdNextSubpass:
    case VkOp::vkCmdNextSubpass2:
      ++r.subpass;
      break;
    case VkOp::vkCmdEndRenderPass:
    case VkOp::vkCmdEndRenderPass2:
    case VkOp::vkCmdEndRendering:
      r.within = Recording::Within::kNone;
      break;
    case VkOp::vkCmdBeginRendering:
      r.within = Recording::Within::kRendering;
      break;
    case VkOp::vkCmdBeginQuery: {
      const auto& a = *static_cast<const VkArgs_vkCmdBeginQuery*>(args);
      r.active_queries.push_back(
          {raw_handle(a.queryPool), a.query, r.within != Recording::Within::kNone, r.subpass});
      break;
    }
    case VkOp::vkCmdEndQuery: {
      const auto& a = *static_cast<const VkArgs_vkCmdEndQuery*>(args);
      std::erase_if(r.active_queries,
                    [&](const auto& q) { return q.pool == raw_handle(a.queryPool) && q.query == a.query; });
      break;
    }
    case VkOp::vkCmdBindIndexBuffer: {  // of a range resources_ checked
      const auto& a = *static_cast<const VkArgs_vkCmdBindIndexBuffer*>(args);
      const uint64_t type = as_number(a.indexType);
      const uint64_t index_bytes = type == VK_INDEX_TYPE_UINT8_EXT ? 1 : type == VK_INDEX_TYPE_UINT16 ? 2 : 4;
      r.index_room = (resources_.buffer_size(raw_handle(a.buffer)) - a.offset) / index_bytes;
      break;
    }
    case VkOp::vkCmdPushConstants:
      r.graphics_pushed |= (static_cast<const VkArgs_vkCmdPushConstants*>(args)->stageFlags &
                            VK_SHADER_STAGE_ALL_GRAPHICS) != 0;
      break;
    case VkOp::vkCmdBindPipeline: {  // of a pipeline check_bind found
      const auto& a = *static_cast<const VkArgs_vkCmdBindPipeline*>(args);
      const VkPipelineBindPoint point = pipelines_.at(raw_handle(a.pipeline)).bind_point;
      r.graphics_bound |= point == VK_PIPELINE_BIND_POINT_GRAPHICS;
      r.compute_bound |= point == VK_PIPELINE_BIND_POINT_COMPUTE;
      break;
    }
    default:
      note_transform_feedback(r, opcode, args);
      break;
  }
}

// A one-time command buffer cannot be submitted again until re-recorded.
void VkHandler::note_submitted(uint32_t opcode, const void* args) {
  auto spend = [this](VkCommandBuffer cb) {
    Recording& r = recordings_[cb];
    if (r.one_time) r.stage = Recording::Stage::kInvalid;
  };
  each_submitted(opcode, args, spend);
}

// A pool's reset returns its command buffers to the initial state; its end
// takes them.
void VkHandler::reset_recordings_of_pool(uint64_t pool, bool forget) {
  auto kids = children_.find(pool);
  if (kids == children_.end()) return;
  for (const auto& [type, handle] : kids->second.items) {
    if (type != VK_OBJECT_TYPE_COMMAND_BUFFER) continue;
    auto it = recordings_.find(reinterpret_cast<VkCommandBuffer>(handle));
    if (it == recordings_.end()) continue;
    if (forget)
      recordings_.erase(it);
    else
      it->second = it->second.fresh();
  }
}

}  // namespace host::vk
