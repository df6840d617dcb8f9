// VK_EXT_multisampled_render_to_single_sampled: rendering at a sample
// count of the guest's into single-sampled attachments. As a rendering
// begins, lavapipe makes a multisampled copy of each such attachment's view
// at that count (the count goes to the allocator as it is), keeps it in the
// view, and frees it once per attachment at the end: so the count is one
// the device renders at, and an attachment's view is named once.
#include <algorithm>
#include <vector>

#include "vk/chain.h"
#include "vk/refusal.h"
#include "vk/single_sampled.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

const VkMultisampledRenderToSingleSampledInfoEXT* enabled_in(const void* chain) {
  auto* info = reinterpret_cast<const VkMultisampledRenderToSingleSampledInfoEXT*>(
      find_in_chain(chain, VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT));
  return info && info->multisampledRenderToSingleSampledEnable ? info : nullptr;
}

// No value twice, `unused` aside.
template <typename T>
bool distinct(std::vector<T> values, T unused) {
  std::erase(values, unused);
  std::sort(values.begin(), values.end());
  return std::adjacent_find(values.begin(), values.end()) == values.end();
}

std::vector<uint64_t> views_of(const VkRenderingInfo& info) {
  std::vector<uint64_t> views;
  for (uint32_t i = 0; i < info.colorAttachmentCount; ++i) views.push_back(raw_handle(info.pColorAttachments[i].imageView));
  return views;
}

std::vector<uint64_t> views_of(const VkImageView* views, uint32_t count) {
  std::vector<uint64_t> raw;
  for (uint32_t i = 0; views && i < count; ++i) raw.push_back(raw_handle(views[i]));
  return raw;
}

}  // namespace

bool repeats_views(const VkFramebufferCreateInfo& info) {
  return !(info.flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) &&
         !distinct(views_of(info.pAttachments, info.attachmentCount), uint64_t{0});
}

bool any_subpass_single_sampled(const VkRenderPassCreateInfo2& info) {
  for (uint32_t i = 0; i < info.subpassCount; ++i)
    if (enabled_in(info.pSubpasses[i].pNext)) return true;
  return false;
}

// Whether `chain` renders multisampled into single-sampled attachments,
// at a sample count `device` renders at; refused where it may not.
wire::Result<bool> VkHandler::renders_single_sampled(const char* command, uint64_t device, const void* chain) const {
  const VkMultisampledRenderToSingleSampledInfoEXT* info = enabled_in(chain);
  if (!info) return false;
  auto limits = device_limits_.find(reinterpret_cast<VkDevice>(device));
  const VkSampleCountFlags counts = limits == device_limits_.end() ? 0 : limits->second.single_sampled_counts;
  if (!counts) return refused(command, "rendering to single-sampled attachments on a device created without "
                                       "VK_EXT_multisampled_render_to_single_sampled");
  const uint32_t samples = info->rasterizationSamples;
  if (__builtin_popcount(samples) != 1 || !(samples & counts))
    return refused(command, "rendering to single-sampled attachments at " + std::to_string(samples) +
                                " samples, not a count the device renders at");
  return true;
}

wire::Status VkHandler::check_single_sampled(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCmdBeginRendering: {
      auto& a = *static_cast<const VkArgs_vkCmdBeginRendering*>(args);
      const uint64_t device = handles_.device_of(handles_.to_wire(VK_OBJECT_TYPE_COMMAND_BUFFER, true, raw_handle(a.commandBuffer)));
      auto renders = renders_single_sampled("vkCmdBeginRendering", device, a.pRenderingInfo->pNext);
      if (!renders) return renders.error();
      if (*renders && !distinct(views_of(*a.pRenderingInfo), uint64_t{0}))
        return refused("vkCmdBeginRendering", "naming a view twice while rendering to single-sampled attachments");
      return {};
    }
    case VkOp::vkCreateRenderPass2: {
      auto& a = *static_cast<const VkArgs_vkCreateRenderPass2*>(args);
      for (uint32_t i = 0; i < a.pCreateInfo->subpassCount; ++i) {
        const VkSubpassDescription2& subpass = a.pCreateInfo->pSubpasses[i];
        auto renders = renders_single_sampled("vkCreateRenderPass2", raw_handle(a.device), subpass.pNext);
        if (!renders) return renders.error();
        std::vector<uint32_t> colors;
        for (uint32_t c = 0; *renders && subpass.pColorAttachments && c < subpass.colorAttachmentCount; ++c)
          colors.push_back(subpass.pColorAttachments[c].attachment);
        if (!distinct(colors, VK_ATTACHMENT_UNUSED))
          return refused("vkCreateRenderPass2", "naming an attachment twice in a subpass rendering to single-sampled "
                                                "attachments");
      }
      return {};
    }
    case VkOp::vkCmdBeginRenderPass:
    case VkOp::vkCmdBeginRenderPass2: {
      const VkRenderPassBeginInfo& begin = opcode == static_cast<uint32_t>(VkOp::vkCmdBeginRenderPass)
                                               ? *static_cast<const VkArgs_vkCmdBeginRenderPass*>(args)->pRenderPassBegin
                                               : *static_cast<const VkArgs_vkCmdBeginRenderPass2*>(args)->pRenderPassBegin;
      auto pass = render_passes_.find(raw_handle(begin.renderPass));
      if (pass == render_passes_.end() || !pass->second.single_sampled) return {};
      auto* given = reinterpret_cast<const VkRenderPassAttachmentBeginInfo*>(
          find_in_chain(begin.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO));
      auto framebuffer = framebuffers_.find(raw_handle(begin.framebuffer));
      const bool repeats = given ? !distinct(views_of(given->pAttachments, given->attachmentCount), uint64_t{0})
                                 : framebuffer != framebuffers_.end() && framebuffer->second.repeats_views;
      if (repeats)
        return refused("vkCmdBeginRenderPass", "naming a view twice for a render pass rendering to single-sampled "
                                               "attachments");
      return {};
    }
    default:
      return {};
  }
}

}  // namespace host::vk
