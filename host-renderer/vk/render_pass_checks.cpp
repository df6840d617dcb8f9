// A render pass's own numbers, checked when it is made (Vulkan 1.3, 8.1
// "Render Pass Creation"): every attachment a subpass names is one of the
// render pass's (or VK_ATTACHMENT_UNUSED), every dependency joins subpasses
// it has (or VK_SUBPASS_EXTERNAL), and a multiview chain gives each subpass
// its view mask. Drivers index their attachment and subpass arrays by these
// numbers while they build the pass (lavapipe read far past its
// attachments for a reference of index 2^31).
#include "vk/chain.h"
#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

template <typename Reference>
bool names_attachments(const Reference* refs, uint32_t count, uint32_t attachments) {
  for (uint32_t i = 0; refs && i < count; ++i)
    if (refs[i].attachment != VK_ATTACHMENT_UNUSED && refs[i].attachment >= attachments) return false;
  return true;
}

bool preserves_attachments(const uint32_t* preserved, uint32_t count, uint32_t attachments) {
  for (uint32_t i = 0; preserved && i < count; ++i)
    if (preserved[i] >= attachments) return false;
  return true;
}

// Resolve attachments, when given, are one for each colour attachment.
template <typename Subpass>
bool subpass_names_attachments(const Subpass& s, uint32_t attachments) {
  return names_attachments(s.pInputAttachments, s.inputAttachmentCount, attachments) &&
         names_attachments(s.pColorAttachments, s.colorAttachmentCount, attachments) &&
         names_attachments(s.pResolveAttachments, s.colorAttachmentCount, attachments) &&
         names_attachments(s.pDepthStencilAttachment, 1, attachments) &&
         preserves_attachments(s.pPreserveAttachments, s.preserveAttachmentCount, attachments);
}

bool joins_subpasses(uint32_t src, uint32_t dst, uint32_t subpasses) {
  auto known = [subpasses](uint32_t s) { return s == VK_SUBPASS_EXTERNAL || s < subpasses; };
  return known(src) && known(dst);
}

template <typename Info>
wire::Status check_pass(const char* command, const Info& info) {
  for (uint32_t i = 0; i < info.subpassCount; ++i)
    if (!subpass_names_attachments(info.pSubpasses[i], info.attachmentCount))
      return refused(command, "with a subpass naming an attachment the render pass does not have");
  for (uint32_t i = 0; i < info.dependencyCount; ++i)
    if (!joins_subpasses(info.pDependencies[i].srcSubpass, info.pDependencies[i].dstSubpass, info.subpassCount))
      return refused(command, "with a dependency on a subpass the render pass does not have");
  return {};
}

}  // namespace

wire::Status VkHandler::check_render_passes(uint32_t opcode, const void* args) const {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkCreateRenderPass: {
      const VkRenderPassCreateInfo& info = *static_cast<const VkArgs_vkCreateRenderPass*>(args)->pCreateInfo;
      WIRE_TRY(check_pass("vkCreateRenderPass", info));
      auto* views = reinterpret_cast<const VkRenderPassMultiviewCreateInfo*>(
          find_in_chain(info.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO));
      if (views && views->subpassCount && views->subpassCount != info.subpassCount)
        return refused("vkCreateRenderPass", "with view masks for other subpasses than its own");
      return {};
    }
    case VkOp::vkCreateRenderPass2: {
      const VkRenderPassCreateInfo2& info = *static_cast<const VkArgs_vkCreateRenderPass2*>(args)->pCreateInfo;
      WIRE_TRY(check_pass("vkCreateRenderPass2", info));
      for (uint32_t i = 0; i < info.subpassCount; ++i) {
        auto* resolve = reinterpret_cast<const VkSubpassDescriptionDepthStencilResolve*>(
            find_in_chain(info.pSubpasses[i].pNext, VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE));
        if (resolve && !names_attachments(resolve->pDepthStencilResolveAttachment, 1, info.attachmentCount))
          return refused("vkCreateRenderPass2", "with a depth resolve into an attachment it does not have");
      }
      return {};
    }
    default:
      return {};
  }
}

}  // namespace host::vk
