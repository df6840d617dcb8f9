// Ranges, indices and counts past the objects they name, which drivers
// follow into the renderer's own memory (a copy of 256 KiB out of a 4 KiB
// buffer read the renderer's heap back): the host refuses each before the
// driver sees it, and only the program's Vulkan is lost. Each class has a
// control in the rules that the device survives.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;

constexpr VkDeviceSize kSmall = 4096;

// Buffers: copies, updates, fills.

TEST(VulkanRanges, CopiesInsideTheirBuffersRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer a = buffer_of(device, kSmall), b = buffer_of(device, kSmall);
    VkCommandBuffer cb = recording_buffer(device);
    VkBufferCopy region{0, 0, kSmall};
    vkCmdCopyBuffer(cb, a, b, 1, &region);
    const uint32_t data[4] = {1, 2, 3, 4};
    vkCmdUpdateBuffer(cb, b, kSmall - 16, 16, data);
    vkCmdFillBuffer(cb, a, 0, VK_WHOLE_SIZE, 7);
    end_and_submit(device, cb);
  });
}

TEST(VulkanRanges, CopyOfMoreThanTheSourceHolds) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer src = buffer_of(device, kSmall), dst = buffer_of(device, 256 * 1024);
    VkBufferCopy region{0, 0, 256 * 1024};
    vkCmdCopyBuffer(recording_buffer(device), src, dst, 1, &region);
  });
}

TEST(VulkanRanges, CopyPastTheDestinationsEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer src = buffer_of(device, kSmall), dst = buffer_of(device, kSmall);
    VkBufferCopy region{0, kSmall - 8, 16};
    vkCmdCopyBuffer(recording_buffer(device), src, dst, 1, &region);
  });
}

TEST(VulkanRanges, CopyFromAnOffsetOfNearlyTwoGiB) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer src = buffer_of(device, kSmall), dst = buffer_of(device, kSmall);
    VkBufferCopy region{uint64_t{1900} << 20, 0, 64};
    vkCmdCopyBuffer(recording_buffer(device), src, dst, 1, &region);
  });
}

TEST(VulkanRanges, Copy2WhoseSizeWrapsAround) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer src = buffer_of(device, kSmall), dst = buffer_of(device, kSmall);
    VkBufferCopy2 region{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 16, 0, UINT64_MAX - 8};
    VkCopyBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, nullptr, src, dst, 1, &region};
    vkCmdCopyBuffer2(recording_buffer(device), &info);
  });
}

TEST(VulkanRanges, UpdatePastTheBuffersEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const uint32_t data[16] = {};
    vkCmdUpdateBuffer(recording_buffer(device), buffer_of(device, kSmall), 8192, sizeof data, data);
  });
}

TEST(VulkanRanges, FillPastTheBuffersEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdFillBuffer(recording_buffer(device), buffer_of(device, kSmall), kSmall - 4, 64, 0);
  });
}

TEST(VulkanRanges, WholeSizeFillFromPastTheEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdFillBuffer(recording_buffer(device), buffer_of(device, kSmall), kSmall * 2, VK_WHOLE_SIZE, 0);
  });
}

TEST(VulkanRanges, CopyOfABufferWithoutMemory) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer src = bare_buffer(device, kSmall), dst = buffer_of(device, kSmall);
    VkBufferCopy region{0, 0, 64};
    vkCmdCopyBuffer(recording_buffer(device), src, dst, 1, &region);
  });
}

TEST(VulkanRanges, CopyOfABufferWhoseMemoryWasFreed) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer src = bare_buffer(device, kSmall), dst = buffer_of(device, kSmall);
    VkDeviceMemory memory = bind_own_memory(device, src);
    vkFreeMemory(device, memory, nullptr);
    VkBufferCopy region{0, 0, 64};
    vkCmdCopyBuffer(recording_buffer(device), src, dst, 1, &region);
  });
}

// Copies whose source and destination overlap (found by the Vulkan session
// fuzzer: lavapipe copies with memcpy, whose ranges must not overlap).

TEST(VulkanRanges, CopyWithinABufferWithoutOverlapRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    VkCommandBuffer cb = recording_buffer(device);
    VkBufferCopy region{0, kSmall / 2, kSmall / 2};
    vkCmdCopyBuffer(cb, buffer, buffer, 1, &region);
    end_and_submit(device, cb);
  });
}

TEST(VulkanRanges, CopyWithinABufferOntoItself) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    VkBufferCopy2 region{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 64, 0, 512};
    VkCopyBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, nullptr, buffer, buffer, 1, &region};
    vkCmdCopyBuffer2(recording_buffer(device), &info);
  });
}

TEST(VulkanRanges, CopyBetweenBuffersBoundToTheSameBytes) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer a = bare_buffer(device, kSmall), b = bare_buffer(device, kSmall);
    VkDeviceMemory memory = bind_own_memory(device, a);
    vkBindBufferMemory(device, b, memory, 0);
    VkBufferCopy region{0, 16, 256};
    vkCmdCopyBuffer(recording_buffer(device), a, b, 1, &region);
  });
}

// Memory binds.

TEST(VulkanRanges, BindPastTheMemorysEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = bare_buffer(device, kSmall);
    const VkMemoryRequirements need = requirements_of(device, buffer);
    vkBindBufferMemory(device, buffer, memory_for(device, need, need.size), need.size);
  });
}

TEST(VulkanRanges, BindToMemoryTooSmall) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = bare_buffer(device, 1 << 20);
    vkBindBufferMemory(device, buffer, memory_for(device, requirements_of(device, buffer), kSmall),
                       0);
  });
}

TEST(VulkanRanges, BindOfABufferBoundAlready) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    bind_own_memory(device, buffer);
  });
}

TEST(VulkanRanges, ImageBoundToMemoryTooSmall) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R8G8B8A8_UNORM;
    info.extent = {256, 256, 1};
    info.mipLevels = info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    const VkImage image = created(device, info, vkCreateImage);
    vkBindImageMemory(device, image, memory_for(device, requirements_of(device, image), kSmall), 0);
  });
}

// Vertex, index and indirect buffers.

TEST(VulkanRanges, VertexBufferBoundPastItsEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    const VkDeviceSize offset = kSmall + 256;
    vkCmdBindVertexBuffers(recording_buffer(device), 0, 1, &buffer, &offset);
  });
}

// Bindings, viewports and scissors past the device's limits (found by the
// Vulkan session fuzzer: lavapipe wrote a vertex binding of index 2.8e9
// into its state arrays).
TEST(VulkanRanges, VertexBindingPastTheDevicesLimit) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(recording_buffer(device), 0xa64c3685, 1, &buffer, &offset);
  });
}

TEST(VulkanRanges, ViewportPastTheDevicesLimit) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(gpu, &props);
    const VkViewport viewport{0, 0, 16, 16, 0, 1};
    vkCmdSetViewport(recording_buffer(device), props.limits.maxViewports, 1, &viewport);
  });
}

TEST(VulkanRanges, ScissorsPastTheDevicesLimit) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(gpu, &props);
    std::vector<VkRect2D> scissors(props.limits.maxViewports + 1, VkRect2D{{0, 0}, {16, 16}});
    vkCmdSetScissorWithCount(recording_buffer(device), static_cast<uint32_t>(scissors.size()), scissors.data());
  });
}

TEST(VulkanRanges, LastViewportAndBindingOfTheDeviceRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(gpu, &props);
    VkCommandBuffer cb = recording_buffer(device);
    const VkViewport viewport{0, 0, 16, 16, 0, 1};
    vkCmdSetViewport(cb, props.limits.maxViewports - 1, 1, &viewport);
    VkBuffer buffer = buffer_of(device, kSmall);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, props.limits.maxVertexInputBindings - 1, 1, &buffer, &offset);
    end_and_submit(device, cb);
  });
}

TEST(VulkanRanges, VertexBufferRangePastItsEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    const VkDeviceSize offset = 64, size = kSmall;
    vkCmdBindVertexBuffers2(recording_buffer(device), 0, 1, &buffer, &offset, &size, nullptr);
  });
}

TEST(VulkanRanges, IndexBufferBoundPastItsEnd) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdBindIndexBuffer(recording_buffer(device), buffer_of(device, kSmall), uint64_t{1} << 40, VK_INDEX_TYPE_UINT16);
  });
}

TEST(VulkanRanges, IndexBufferOfAnIndexTypeNotCarried) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdBindIndexBuffer(recording_buffer(device), buffer_of(device, kSmall), 0, static_cast<VkIndexType>(77));
  });
}

// Recording, add_one.comp bound.
VkCommandBuffer compute_recording(VkDevice device) {
  VkPipelineLayout layout = layout_of(device, add_one_set_layout(device));
  VkCommandBuffer cb = recording_buffer(device);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, add_one_pipeline(device, layout));
  return cb;
}

// A dispatch's records must lie in the buffer; the pipeline is bound so
// that only the range is at fault.
void dispatch_indirect_at(VkDevice device, VkDeviceSize offset) {
  vkCmdDispatchIndirect(compute_recording(device), buffer_of(device, kSmall), offset);
}

TEST(VulkanRanges, IndirectDispatchInsideItsBufferIsRecorded) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) { dispatch_indirect_at(device, kSmall - 12); });
}

TEST(VulkanRanges, IndirectDispatchPastItsBuffer) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { dispatch_indirect_at(device, kSmall - 8); });
}

TEST(VulkanRanges, IndirectDispatchAtAnOffsetNotOfFour) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { dispatch_indirect_at(device, 2); });
}

// Work one dispatch asks for: each side within maxComputeWorkGroupCount
// (past its base), all of them within the host's --max-dispatch-groups
// (2^24 by default). Recorded, never submitted: a dispatch the host let
// through would keep the driver busy for hours.

uint32_t most_workgroups_across(VkPhysicalDevice gpu) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(gpu, &props);
  return props.limits.maxComputeWorkGroupCount[0];
}

TEST(VulkanRanges, DispatchOfTheHostsMostWorkgroupsIsRecorded) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdDispatch(compute_recording(device), 4096, 4096, 1);
  });
}

TEST(VulkanRanges, DispatchOfMoreWorkgroupsThanTheHostAllows) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdDispatch(compute_recording(device), 4096, 4096, 2);
  });
}

TEST(VulkanRanges, DispatchPastTheDevicesWorkgroupCount) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    vkCmdDispatch(compute_recording(device), most_workgroups_across(gpu) + 1, 1, 1);
  });
}

TEST(VulkanRanges, DispatchOfEveryWorkgroupCountAtOnce) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdDispatch(compute_recording(device), 0xffffffff, 0xffffffff, 0xffffffff);
  });
}

TEST(VulkanRanges, DispatchFromABaseEndingPastTheDevicesWorkgroupCount) {
  expect_refused([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    vkCmdDispatchBase(compute_recording(device), most_workgroups_across(gpu), 0, 0, 1, 1, 1);
  });
}

// Queries.

VkQueryPool query_pool(VkDevice device, uint32_t count) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = count;
  return guesttest::created(device, info, vkCreateQueryPool);
}

// A pool's queries count as objects for its size (--max-objects, 2^20 by
// default): lavapipe sizes a pool in 32 bits, and 2^29 + 1 queries of 8
// bytes each wrapped to a pool of one.
TEST(VulkanRanges, QueryPoolOfAsManyQueriesAsTheGuestMayHoldObjectsRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) { query_pool(device, 1u << 20); });
}

TEST(VulkanRanges, QueryPoolOfMoreQueriesThanTheGuestMayHoldObjects) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { query_pool(device, (1u << 29) + 1); });
}

TEST(VulkanRanges, QueriesOfTheirPoolRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkQueryPool pool = query_pool(device, 4);
    VkCommandBuffer cb = recording_buffer(device);
    vkCmdResetQueryPool(cb, pool, 0, 4);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 3);
    vkCmdCopyQueryPoolResults(cb, pool, 0, 4, buffer_of(device, 64), 0, 16, VK_QUERY_RESULT_64_BIT);
    end_and_submit(device, cb);
  });
}

TEST(VulkanRanges, ResetOfQueriesPastThePool) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdResetQueryPool(recording_buffer(device), query_pool(device, 4), 2, 1u << 30);
  });
}

TEST(VulkanRanges, TimestampIntoAQueryThePoolLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdWriteTimestamp(recording_buffer(device), VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query_pool(device, 4), 4096);
  });
}

TEST(VulkanRanges, QueryResultsCopiedPastTheBuffer) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkCmdCopyQueryPoolResults(recording_buffer(device), query_pool(device, 4), 0, 4, buffer_of(device, 64), 0, 4096,
                              VK_QUERY_RESULT_64_BIT);
  });
}

TEST(VulkanRanges, HostResetOfQueriesPastThePool) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkResetQueryPool(device, query_pool(device, 4), 3, 2);
  });
}

// Private data names its object as a bare number beside its type (found by
// the Vulkan session fuzzer: lavapipe follows it as a pointer).

VkPrivateDataSlot private_data_slot(VkDevice device) {
  return guesttest::created(device, VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO,
                            vkCreatePrivateDataSlot);
}

TEST(VulkanRanges, PrivateDataOfABufferRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    VkPrivateDataSlot slot = private_data_slot(device);
    vkSetPrivateData(device, VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer), slot, 42);
    uint64_t value = 0;
    vkGetPrivateData(device, VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer), slot, &value);
    EXPECT_EQ(value, 42u);
  });
}

TEST(VulkanRanges, PrivateDataOfAnObjectThatIsNotThere) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    vkSetPrivateData(device, VK_OBJECT_TYPE_BUFFER, 0x4141414141410, private_data_slot(device), 1);
  });
}

TEST(VulkanRanges, PrivateDataOfAnObjectOfAnotherType) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    uint64_t value = 0;
    vkGetPrivateData(device, VK_OBJECT_TYPE_IMAGE, reinterpret_cast<uint64_t>(buffer), private_data_slot(device),
                     &value);
  });
}

TEST(VulkanRanges, PrivateDataWithoutASlot) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, kSmall);
    uint64_t value = 0;
    vkGetPrivateData(device, VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer), VK_NULL_HANDLE, &value);
  });
}

// Queues the device was not created with (found by the Vulkan session
// fuzzer: lavapipe answers one with a handle the loader aborts on later).

TEST(VulkanRanges, QueueOfAnIndexTheDeviceWasNotCreatedWith) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, 0, 7, &queue);
  });
}

TEST(VulkanRanges, QueueOfAFamilyTheDeviceWasNotCreatedWith) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, 12, 0, &queue);
  });
}

// Dynamic state drivers index their tables by when the commands run.

TEST(VulkanRanges, FrontFacePastItsEnum) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandBuffer cb = recording_buffer(device);
    vkCmdSetFrontFace(cb, static_cast<VkFrontFace>(0x7fffffff));
    end_and_submit(device, cb);
  });
}

TEST(VulkanRanges, DescriptorSetsBoundAtABindPointNotCarried) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkDescriptorSetLayout layout = add_one_set_layout(device);
    VkDescriptorSet set = set_of(device, layout);
    vkCmdBindDescriptorSets(recording_buffer(device), static_cast<VkPipelineBindPoint>(900), layout_of(device, layout),
                            0, 1, &set, 0, nullptr);
  });
}

// Render passes: attachments and subpasses they do not have (found by the
// Vulkan session fuzzer: lavapipe read far past its attachments while it
// built a pass whose colour reference was of index 2^31).

VkResult render_pass(VkDevice device, uint32_t color_attachment, uint32_t dependency_subpass) {
  VkAttachmentDescription attachment{};
  attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  const VkAttachmentReference color{color_attachment, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  VkSubpassDependency dependency{};
  dependency.srcSubpass = VK_SUBPASS_EXTERNAL;
  dependency.dstSubpass = dependency_subpass;
  dependency.srcStageMask = dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 1;
  info.pAttachments = &attachment;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 1;
  info.pDependencies = &dependency;
  VkRenderPass pass = VK_NULL_HANDLE;
  return vkCreateRenderPass(device, &info, nullptr, &pass);
}

TEST(VulkanRanges, RenderPassesOfTheirOwnAttachmentsAndSubpassesRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    EXPECT_EQ(render_pass(device, 0, 0), VK_SUCCESS);
    EXPECT_EQ(render_pass(device, VK_ATTACHMENT_UNUSED, 0), VK_SUCCESS);
  });
}

TEST(VulkanRanges, RenderPassNamingAnAttachmentItLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { render_pass(device, 1u << 31, 0); });
}

TEST(VulkanRanges, RenderPassDependingOnASubpassItLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { render_pass(device, 0, 7); });
}

// Enumerated values a structure's type does not have (found by the Vulkan
// session fuzzer: lavapipe indexed its tables by a sampler's address mode).

VkResult sampler_addressed(VkDevice device, VkSamplerAddressMode mode) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.addressModeU = info.addressModeV = info.addressModeW = mode;
  info.maxLod = 1;
  VkSampler sampler = VK_NULL_HANDLE;
  return vkCreateSampler(device, &info, nullptr, &sampler);
}

TEST(VulkanRanges, SamplerOfKnownValuesRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    EXPECT_EQ(sampler_addressed(device, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT), VK_SUCCESS);
  });
}

TEST(VulkanRanges, SamplerOfAnAddressModeItsTypeLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    sampler_addressed(device, static_cast<VkSamplerAddressMode>(0x7a3c));
  });
}

// What a driver hands out unwritten (lavapipe's memory is the renderer's own
// heap): the host clears it, so a guest reads no bytes the renderer freed,
// and an indirect buffer it never wrote asks for no work.

uint32_t host_visible_type(VkPhysicalDevice gpu) {
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(gpu, &props);
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if (props.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) return i;
  return 0;
}

// Maps `memory` whole and fills or checks its bytes; false when the map fails.
bool map_and(VkDevice device, VkDeviceMemory memory, VkDeviceSize size, int fill) {
  void* data = nullptr;
  if (vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &data) != VK_SUCCESS) return false;
  auto* bytes = static_cast<unsigned char*>(data);
  bool zeros = true;
  if (fill >= 0) std::memset(bytes, fill, size);
  else for (VkDeviceSize i = 0; i < size; ++i) zeros = zeros && bytes[i] == 0;
  vkUnmapMemory(device, memory);
  return zeros;
}

TEST(VulkanRanges, FreshMemoryHoldsNoneOfTheRenderersFreedBytes) {
  expect_accepted([](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    const uint32_t type = host_visible_type(gpu);
    constexpr VkDeviceSize kSize = 4096;
    for (int i = 0; i < 8; ++i) {
      VkDeviceMemory used = memory_of(device, kSize, type);
      map_and(device, used, kSize, 0xab);
      vkFreeMemory(device, used, nullptr);
    }
    for (int i = 0; i < 8; ++i)
      if (!map_and(device, memory_of(device, kSize, type), kSize, -1)) std::exit(7);
  });
}

}  // namespace
