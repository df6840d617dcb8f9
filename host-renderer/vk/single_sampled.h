// VK_EXT_multisampled_render_to_single_sampled (single_sampled.cpp).
#pragma once

#include <vulkan/vulkan.h>

namespace host::vk {

// A subpass of `info` renders multisampled into single-sampled attachments.
bool any_subpass_single_sampled(const VkRenderPassCreateInfo2& info);

// A framebuffer of views names one of them twice.
bool repeats_views(const VkFramebufferCreateInfo& info);

}  // namespace host::vk
