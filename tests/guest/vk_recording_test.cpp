// Commands recorded where the spec forbids them, which drivers trust
// (lavapipe reads through a null pointer ending a render pass never begun):
// the host refuses each, and only the program's Vulkan is lost.
#include <cstdint>
#include <functional>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using guesttest::expect_accepted;
using guesttest::expect_refused;
using guesttest::new_command_buffer;
using guesttest::submit;

VkCommandBuffer recording(VkDevice device) { return guesttest::recording_buffer(device); }

// A render pass of one subpass and `colours` colour attachments.
VkRenderPass render_pass(VkDevice device, uint32_t colours = 0) {
  VkAttachmentDescription colour{};
  colour.format = VK_FORMAT_R8G8B8A8_UNORM;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
  VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = colours;
  subpass.pColorAttachments = &reference;
  VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  pass_info.attachmentCount = colours;
  pass_info.pAttachments = &colour;
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  return guesttest::created(device, pass_info, vkCreateRenderPass);
}

// 16x16, without attachments.
VkFramebuffer framebuffer_of(VkDevice device, VkRenderPass pass) {
  VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb_info.renderPass = pass;
  fb_info.width = fb_info.height = 16;
  fb_info.layers = 1;
  return guesttest::created(device, fb_info, vkCreateFramebuffer);
}

// Inside a render pass of one subpass and no attachments, 16x16.
VkCommandBuffer in_render_pass(VkDevice device) {
  VkRenderPass pass = render_pass(device);
  VkFramebuffer framebuffer = framebuffer_of(device, pass);
  VkCommandBuffer cb = recording(device);
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = pass;
  begin.framebuffer = framebuffer;
  begin.renderArea.extent = {16, 16};
  vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
  return cb;
}

TEST(VulkanRecording, EndOfARenderPassNeverBegun) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { vkCmdEndRenderPass(recording(device)); });
}

TEST(VulkanRecording, NextSubpassAfterTheLast) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdNextSubpass(in_render_pass(device), VK_SUBPASS_CONTENTS_INLINE);
  });
}

TEST(VulkanRecording, DrawWithNoPipelineBound) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { vkCmdDraw(in_render_pass(device), 3, 1, 0, 0); });
}

TEST(VulkanRecording, DrawOutsideARenderPass) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { vkCmdDraw(recording(device), 3, 1, 0, 0); });
}

TEST(VulkanRecording, DispatchWithNoPipelineBound) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { vkCmdDispatch(recording(device), 1, 1, 1); });
}

TEST(VulkanRecording, CommandIntoABufferNeverBegun) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdSetLineWidth(new_command_buffer(device), 1.0f);
  });
}

TEST(VulkanRecording, EndInsideARenderPass) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { vkEndCommandBuffer(in_render_pass(device)); });
}

TEST(VulkanRecording, SubmitOfABufferStillRecording) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { submit(device, recording(device)); });
}

TEST(VulkanRecording, ExecuteOfAPrimary) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer inner = recording(device);
    vkEndCommandBuffer(inner);
    vkCmdExecuteCommands(recording(device), 1, &inner);
  });
}

TEST(VulkanRecording, SecondaryWithoutInheritance) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = new_command_buffer(device, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cb, &begin);
  });
}

TEST(VulkanRecording, ComputePipelineBoundForGraphics) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineLayout layout =
        guesttest::layout_of(device, guesttest::add_one_set_layout(device));
    vkCmdBindPipeline(in_render_pass(device), VK_PIPELINE_BIND_POINT_GRAPHICS,
                      guesttest::add_one_pipeline(device, layout));
  });
}

TEST(VulkanRecording, FramebufferWithFewerAttachmentsThanItsRenderPass) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkFramebuffer framebuffer = framebuffer_of(device, render_pass(device));
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = render_pass(device, 1);
    begin.framebuffer = framebuffer;
    begin.renderArea.extent = {16, 16};
    vkCmdBeginRenderPass(recording(device), &begin, VK_SUBPASS_CONTENTS_INLINE);
  });
}

// A render area past the framebuffer: lavapipe cleared and drew rows past
// the attachments' memory (found by the Vulkan session fuzzer).
void begin_with_area(VkDevice device, VkRect2D area, const void* next = nullptr) {
  VkRenderPass pass = render_pass(device);
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, next};
  begin.renderPass = pass;
  begin.framebuffer = framebuffer_of(device, pass);
  begin.renderArea = area;
  VkCommandBuffer cb = recording(device);
  vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdEndRenderPass(cb);
}

TEST(VulkanRecording, RenderAreaWithinTheFramebufferRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) { begin_with_area(device, {{8, 4}, {8, 12}}); });
}

TEST(VulkanRecording, RenderAreaPastTheFramebuffer) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { begin_with_area(device, {{0, 4089}, {16, 16}}); });
}

TEST(VulkanRecording, RenderAreaWiderThanTheFramebuffer) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { begin_with_area(device, {{8, 0}, {16, 16}}); });
}

// A device group's areas are checked too: a driver may draw them.
TEST(VulkanRecording, DeviceGroupRenderAreaPastTheFramebuffer) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkRect2D past{{0, 0}, {16, 4096}};
    VkDeviceGroupRenderPassBeginInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO, nullptr, 1, 1, &past};
    begin_with_area(device, {{0, 0}, {16, 16}}, &group);
  });
}

TEST(VulkanRecording, RenderAreaAtANegativeOffset) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { begin_with_area(device, {{-4, 0}, {4, 16}}); });
}

// Push constants past the device's storage: drivers copy them there.
TEST(VulkanRecording, PushConstantsPastTheDevicesStorage) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(gpu, &props);
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VkPipelineLayout layout;
    vkCreatePipelineLayout(device, &layout_info, nullptr, &layout);
    const uint32_t values[4] = {};
    vkCmdPushConstants(recording(device), layout, VK_SHADER_STAGE_VERTEX_BIT, props.limits.maxPushConstantsSize, 16,
                       values);
  });
}

// Queries (found by the Vulkan session fuzzer: lavapipe ends a query that
// is not active by reading through a null pointer).

VkQueryPool occlusion_queries(VkDevice device) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_OCCLUSION;
  info.queryCount = 4;
  return guesttest::created(device, info, vkCreateQueryPool);
}

// Query commands that `misuse` records on a pool of occlusion_queries are refused.
void expect_queries_refused(const std::function<void(VkCommandBuffer, VkQueryPool)>& misuse) {
  expect_refused([&](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkQueryPool pool = occlusion_queries(device);
    misuse(recording(device), pool);
  });
}

TEST(VulkanRecording, QueryBegunEndedAndResetRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkQueryPool pool = occlusion_queries(device);
    VkCommandBuffer cb = recording(device);
    vkCmdResetQueryPool(cb, pool, 0, 4);
    vkCmdBeginQuery(cb, pool, 1, 0);
    vkCmdEndQuery(cb, pool, 1);
    vkCmdBeginQuery(cb, pool, 2, 0);
    vkCmdEndQuery(cb, pool, 2);
    vkEndCommandBuffer(cb);
    submit(device, cb);
  });
}

TEST(VulkanRecording, EndOfAQueryNeverBegun) {
  expect_queries_refused([](VkCommandBuffer cb, VkQueryPool pool) {
    vkCmdResetQueryPool(cb, pool, 0, 4);
    vkCmdEndQuery(cb, pool, 3);
  });
}

TEST(VulkanRecording, EndOfAnotherQueryThanTheOneBegun) {
  expect_queries_refused([](VkCommandBuffer cb, VkQueryPool pool) {
    vkCmdBeginQuery(cb, pool, 0, 0);
    vkCmdEndQuery(cb, pool, 1);
  });
}

TEST(VulkanRecording, QueryBegunTwice) {
  expect_queries_refused([](VkCommandBuffer cb, VkQueryPool pool) {
    vkCmdBeginQuery(cb, pool, 0, 0);
    vkCmdBeginQuery(cb, pool, 0, 0);
  });
}

TEST(VulkanRecording, ResetOfAnActiveQuery) {
  expect_queries_refused([](VkCommandBuffer cb, VkQueryPool pool) {
    vkCmdBeginQuery(cb, pool, 2, 0);
    vkCmdResetQueryPool(cb, pool, 0, 4);
  });
}

TEST(VulkanRecording, EndWithAQueryActive) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = recording(device);
    vkCmdBeginQuery(cb, occlusion_queries(device), 0, 0);
    vkEndCommandBuffer(cb);
  });
}

TEST(VulkanRecording, RenderPassEndedWithAQueryBegunInside) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = in_render_pass(device);
    vkCmdBeginQuery(cb, occlusion_queries(device), 0, 0);
    vkCmdEndRenderPass(cb);
  });
}

// Objects a recorded command requires, null (found by the Vulkan session
// fuzzer: lavapipe follows a null event when the buffer runs).

VkEvent new_event(VkDevice device) {
  return guesttest::created(device, VK_STRUCTURE_TYPE_EVENT_CREATE_INFO, vkCreateEvent);
}

TEST(VulkanRecording, EventSetAndWaitedForRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkEvent event = new_event(device);
    VkCommandBuffer cb = recording(device);
    vkCmdSetEvent(cb, event, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0,
                    nullptr, 0, nullptr);
    vkEndCommandBuffer(cb);
    submit(device, cb);
  });
}

TEST(VulkanRecording, WaitForANullEvent) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkEvent events[2] = {new_event(device), VK_NULL_HANDLE};
    vkCmdWaitEvents(recording(device), 2, events, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                    nullptr, 0, nullptr, 0, nullptr);
  });
}

TEST(VulkanRecording, SetOfANullEvent) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdSetEvent(recording(device), VK_NULL_HANDLE, VK_PIPELINE_STAGE_TRANSFER_BIT);
  });
}

}  // namespace
