// What the host remembers of objects that later commands are checked
// against, because drivers index by it without looking: a render pass's
// attachments and subpasses, a framebuffer's attachments, a pipeline's bind
// point. A command that names an object of another shape is refused (a
// guest's stream spliced from two programs binds one's compute pipeline as
// the other's graphics one).
#include <algorithm>
#include <string>

#include "vk/chain.h"
#include "vk/pipeline_libraries.h"
#include "vk/single_sampled.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using wire::Errc;
using wire::make_error;
using namespace wire::vk;

void VkHandler::note_shapes(uint32_t opcode, const void* args) {
  // Either version of vkCreateRenderPass: the same counts.
  auto note_pass = [this](const auto& a, bool single_sampled = false) {
    render_passes_[raw_handle(*a.pRenderPass)] = {raw_handle(a.device), a.pCreateInfo->attachmentCount,
                                                  a.pCreateInfo->subpassCount, single_sampled};
  };
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCreateRenderPass:
      note_pass(*static_cast<const VkArgs_vkCreateRenderPass*>(args));
      break;
    case VkOp::vkCreateRenderPass2:
      note_pass(*static_cast<const VkArgs_vkCreateRenderPass2*>(args),
                any_subpass_single_sampled(*static_cast<const VkArgs_vkCreateRenderPass2*>(args)->pCreateInfo));
      break;
    case VkOp::vkDestroyRenderPass:
      render_passes_.erase(raw_handle(static_cast<const VkArgs_vkDestroyRenderPass*>(args)->renderPass));
      break;
    case VkOp::vkCreateFramebuffer: {
      auto& a = *static_cast<const VkArgs_vkCreateFramebuffer*>(args);
      framebuffers_[raw_handle(*a.pFramebuffer)] = {raw_handle(a.device), a.pCreateInfo->attachmentCount,
                                             (a.pCreateInfo->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) != 0,
                                             repeats_views(*a.pCreateInfo), a.pCreateInfo->width,
                                             a.pCreateInfo->height};
      break;
    }
    case VkOp::vkDestroyFramebuffer:
      framebuffers_.erase(raw_handle(static_cast<const VkArgs_vkDestroyFramebuffer*>(args)->framebuffer));
      break;
    case VkOp::vkCreateGraphicsPipelines: {
      auto& a = *static_cast<const VkArgs_vkCreateGraphicsPipelines*>(args);
      note_pipelines(raw_handle(a.device), a.createInfoCount, a.pPipelines, VK_PIPELINE_BIND_POINT_GRAPHICS);
      note_libraries(a.createInfoCount, a.pCreateInfos, a.pPipelines);
      break;
    }
    case VkOp::vkCreateComputePipelines: {
      auto& a = *static_cast<const VkArgs_vkCreateComputePipelines*>(args);
      note_pipelines(raw_handle(a.device), a.createInfoCount, a.pPipelines, VK_PIPELINE_BIND_POINT_COMPUTE);
      break;
    }
    case VkOp::vkDestroyPipeline: {
      const uint64_t pipeline = raw_handle(static_cast<const VkArgs_vkDestroyPipeline*>(args)->pipeline);
      pipelines_.erase(pipeline);
      shaders_.forget_library(pipeline);
      break;
    }
    default:
      break;
  }
}

// Those made: a creation that failed in part leaves the others null.
void VkHandler::note_pipelines(uint64_t device, uint32_t count, const VkPipeline* made, VkPipelineBindPoint point) {
  for (uint32_t i = 0; i < count; ++i)
    if (made[i]) pipelines_[raw_handle(made[i])] = {device, point};
}

// Graphics libraries: their parts, and the layout their shaders were checked against.
void VkHandler::note_libraries(uint32_t count, const VkGraphicsPipelineCreateInfo* infos, const VkPipeline* made) {
  for (uint32_t i = 0; i < count; ++i) {
    if (!made[i] || !is_pipeline_library(infos[i])) continue;
    const uint32_t parts = own_pipeline_parts(infos[i]);
    PipelineShape& shape = pipelines_[raw_handle(made[i])];
    shape.library_parts = parts;
    shape.discards = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) && discards_all(infos[i]);
    if (parts & kShaderParts) shaders_.note_library(raw_handle(made[i]), raw_handle(infos[i].layout));
  }
}

void VkHandler::forget_shapes_of(uint64_t device) {
  auto of_device = [device](const auto& entry) { return entry.second.device == device; };
  std::erase_if(render_passes_, of_device);
  std::erase_if(framebuffers_, of_device);
  std::erase_if(pipelines_, of_device);
}

// A pipeline is bound at the bind point it was made for.
wire::Status VkHandler::check_bind(const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkCmdBindPipeline*>(args);
  auto it = pipelines_.find(raw_handle(a.pipeline));
  if (it == pipelines_.end() || as_number(it->second.bind_point) != as_number(a.pipelineBindPoint))
    return make_error(Errc::kBadValue, "vkCmdBindPipeline of a pipeline at a bind point it was not made for");
  if (it->second.library_parts)  // VUID-vkCmdBindPipeline-pipeline-03382
    return make_error(Errc::kBadValue, "vkCmdBindPipeline of a pipeline library");
  return {};
}

namespace {

// Within the framebuffer (VUID-VkRenderPassBeginInfo-pNext-02850 to -02853,
// VUID-VkDeviceGroupRenderPassBeginInfo-offset-06166 to -06169): a driver
// clears and draws the area it is given, past the attachments' memory too.
bool within(const VkRect2D& area, uint32_t width, uint32_t height) {
  return area.offset.x >= 0 && area.offset.y >= 0 &&
         uint64_t(area.offset.x) + area.extent.width <= width && uint64_t(area.offset.y) + area.extent.height <= height;
}

// Every render area a begin names: its own, and a device group's, which
// the spec says replace it but a driver may not read.
bool areas_within(const VkRenderPassBeginInfo& begin, uint32_t width, uint32_t height) {
  auto inside = [&](const VkRect2D& area) { return within(area, width, height); };
  auto* group = reinterpret_cast<const VkDeviceGroupRenderPassBeginInfo*>(
      find_in_chain(begin.pNext, VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO));
  return inside(begin.renderArea) &&
         (!group || std::all_of(group->pDeviceRenderAreas, group->pDeviceRenderAreas + group->deviceRenderAreaCount,
                                inside));
}

}  // namespace

// The framebuffer has an attachment for each of the render pass's (or the
// begin names one for each, when the framebuffer is imageless), and holds
// the render area.
wire::Status VkHandler::check_render_pass_begin(const VkRenderPassBeginInfo& begin) const {
  auto pass = render_passes_.find(raw_handle(begin.renderPass));
  auto framebuffer = framebuffers_.find(raw_handle(begin.framebuffer));
  if (pass == render_passes_.end() || framebuffer == framebuffers_.end())
    return make_error(Errc::kBadValue, "vkCmdBeginRenderPass of a render pass or framebuffer the host does not know");
  uint32_t attachments = framebuffer->second.attachments;
  if (framebuffer->second.imageless) {
    // The views come with the begin (VkRenderPassAttachmentBeginInfo).
    auto* named = reinterpret_cast<const VkRenderPassAttachmentBeginInfo*>(
        find_in_chain(begin.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO));
    attachments = named ? named->attachmentCount : 0;
  }
  if (attachments != pass->second.attachments)
    return make_error(Errc::kBadValue, "vkCmdBeginRenderPass with a framebuffer of " + std::to_string(attachments) +
                                           " attachments for a render pass of " +
                                           std::to_string(pass->second.attachments));
  if (!areas_within(begin, framebuffer->second.width, framebuffer->second.height))
    return make_error(Errc::kBadValue, "vkCmdBeginRenderPass with a render area past its framebuffer");
  return {};
}

}  // namespace host::vk
