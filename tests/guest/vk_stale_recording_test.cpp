// Command buffers recorded before what they use went: memory freed, a
// buffer destroyed, a descriptor set's buffer gone. Submitting such a
// command buffer is invalid (the driver would run it against freed memory);
// the host refuses it, and runs one whose objects all live.
#include <type_traits>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using guesttest::expect_accepted;
using guesttest::expect_refused;

struct Copy {
  VkBuffer from;
  VkDeviceMemory from_memory;
  VkBuffer to;
  VkCommandBuffer cb;
};

// A recorded copy of 4 KiB from one buffer to another.
Copy recorded_copy(VkDevice device) {
  Copy c{};
  c.from = guesttest::bare_buffer(device, 4096);
  c.from_memory = guesttest::bind_own_memory(device, c.from);
  c.to = guesttest::buffer_of(device, 4096);
  c.cb = guesttest::recording_buffer(device);
  const VkBufferCopy region{0, 0, 4096};
  vkCmdCopyBuffer(c.cb, c.from, c.to, 1, &region);
  vkEndCommandBuffer(c.cb);
  return c;
}

// What `record` recorded (its command buffer `cb`) is refused once `spoil`
// took away what it uses.
template <typename Recorded>
void expect_refused_after(Recorded (*record)(VkDevice),
                          std::type_identity_t<void (*)(VkDevice, const Recorded&)> spoil) {
  expect_refused([record, spoil](VkInstance, VkPhysicalDevice, VkDevice device) {
    const Recorded recorded = record(device);
    spoil(device, recorded);
    guesttest::submit(device, recorded.cb);
  });
}

TEST(VulkanStaleRecording, CopyWhoseObjectsLiveRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    Copy c = recorded_copy(device);
    vkDestroyBuffer(device, guesttest::buffer_of(device, 256), nullptr);  // another buffer goes
    guesttest::submit(device, c.cb);
    guesttest::submit(device, c.cb);
  });
}

TEST(VulkanStaleRecording, CopyFromMemoryFreedAfterRecording) {
  expect_refused_after(recorded_copy, [](VkDevice device, const Copy& c) {
    vkFreeMemory(device, c.from_memory, nullptr);
  });
}

TEST(VulkanStaleRecording, CopyFromABufferDestroyedAfterRecording) {
  expect_refused_after(recorded_copy, [](VkDevice device, const Copy& c) {
    vkDestroyBuffer(device, c.from, nullptr);
    vkFreeMemory(device, c.from_memory, nullptr);
  });
}

// A dispatch of add_one.comp recorded with a set naming a uniform buffer
// and a storage buffer.
struct Dispatch {
  VkDescriptorSet set;
  VkBuffer storage;
  VkPipeline pipeline;
  VkCommandBuffer cb;
};

void write_set(VkDevice device, VkDescriptorSet set, VkBuffer uniform, VkBuffer storage) {
  const VkDescriptorBufferInfo infos[] = {{uniform, 0, 256}, {storage, 0, 256}};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  for (uint32_t i = 0; i < 2; ++i) {
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = i ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);
}

Dispatch set_up_dispatch(VkDevice device) {
  Dispatch d{};
  const VkDescriptorSetLayout set_layout = guesttest::add_one_set_layout(device);
  const VkPipelineLayout layout = guesttest::layout_of(device, set_layout);
  d.pipeline = guesttest::add_one_pipeline(device, layout);
  d.set = guesttest::set_of(device, set_layout);
  d.storage = guesttest::buffer_of(device, 4096);
  write_set(device, d.set, guesttest::buffer_of(device, 4096), d.storage);
  d.cb = guesttest::new_command_buffer(device);
  return d;
}

void record_dispatch(const Dispatch& d, VkPipelineLayout layout) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(d.cb, &begin);
  vkCmdBindPipeline(d.cb, VK_PIPELINE_BIND_POINT_COMPUTE, d.pipeline);
  vkCmdBindDescriptorSets(d.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &d.set, 0, nullptr);
  vkCmdDispatch(d.cb, 1, 1, 1);
  vkEndCommandBuffer(d.cb);
}

Dispatch recorded_dispatch(VkDevice device) {
  Dispatch d = set_up_dispatch(device);
  record_dispatch(d, guesttest::layout_of(device, guesttest::add_one_set_layout(device)));
  return d;
}

TEST(VulkanStaleRecording, DispatchWhoseSetsBufferWasDestroyed) {
  expect_refused_after(recorded_dispatch, [](VkDevice device, const Dispatch& d) {
    vkDestroyBuffer(device, d.storage, nullptr);
  });
}

// The set's slot named the first storage buffer, then the second: only
// the second matters.
TEST(VulkanStaleRecording, DispatchAfterItsSetsFormerBufferWentRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    Dispatch d = set_up_dispatch(device);
    write_set(device, d.set, guesttest::buffer_of(device, 4096), guesttest::buffer_of(device, 4096));
    vkDestroyBuffer(device, d.storage, nullptr);
    record_dispatch(d, guesttest::layout_of(device, guesttest::add_one_set_layout(device)));
    guesttest::submit(device, d.cb);
  });
}

TEST(VulkanStaleRecording, DispatchWhosePipelineWasDestroyed) {
  expect_refused_after(recorded_dispatch, [](VkDevice device, const Dispatch& d) {
    vkDestroyPipeline(device, d.pipeline, nullptr);
  });
}

// A set layout of `binding` alone; `next` extends its create info.
VkDescriptorSetLayout layout_of_one(VkDevice device, const VkDescriptorSetLayoutBinding& binding,
                                    const void* next = nullptr) {
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, next};
  info.bindingCount = 1;
  info.pBindings = &binding;
  return guesttest::created(device, info, vkCreateDescriptorSetLayout);
}

// A command buffer that binds `set` (of `set_layout`) for compute, recorded.
VkCommandBuffer recorded_bind(VkDevice device, VkDescriptorSetLayout set_layout,
                              VkDescriptorSet set) {
  VkCommandBuffer cb = guesttest::recording_buffer(device);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                          guesttest::layout_of(device, set_layout), 0, 1, &set, 0, nullptr);
  vkEndCommandBuffer(cb);
  return cb;
}

// A bindless heap (PARTIALLY_BOUND): its descriptors may name what has
// gone, as long as no shader reads them; the host does not follow them.
TEST(VulkanStaleRecording, SetOfAPartiallyBoundBindingWhoseBufferWentRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT,
                                               nullptr};
    const VkDescriptorBindingFlags partly = VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT;
    VkDescriptorSetLayoutBindingFlagsCreateInfo flags{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
    flags.bindingCount = 1;
    flags.pBindingFlags = &partly;
    const VkDescriptorSetLayout set_layout = layout_of_one(device, binding, &flags);
    const VkDescriptorSet set = guesttest::set_of(device, set_layout);
    const VkBuffer gone = guesttest::buffer_of(device, 4096);
    const VkDescriptorBufferInfo named{gone, 0, 256};
    guesttest::write_descriptor(device, set, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &named, nullptr, 2);
    VkCommandBuffer cb = recorded_bind(device, set_layout, set);
    vkDestroyBuffer(device, gone, nullptr);
    guesttest::submit(device, cb);
  });
}

// A binding of immutable samplers ignores the sampler a write names: that
// one may go.
TEST(VulkanStaleRecording, SetWhoseIgnoredSamplerWentRuns) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    auto sampler = [device] {
      return guesttest::created(device, VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, vkCreateSampler);
    };
    const VkSampler fixed = sampler();
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                               VK_SHADER_STAGE_COMPUTE_BIT, &fixed};
    const VkDescriptorSetLayout set_layout = layout_of_one(device, binding);
    const VkDescriptorSet set = guesttest::set_of(device, set_layout);
    VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view_info.image = guesttest::image_of(device, 16, 16);
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = VK_FORMAT_R8G8B8A8_UNORM;
    view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    const VkImageView view = guesttest::created(device, view_info, vkCreateImageView);
    const VkSampler ignored = sampler();
    const VkDescriptorImageInfo image{ignored, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    guesttest::write_descriptor(device, set, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, nullptr,
                                &image);
    VkCommandBuffer cb = recorded_bind(device, set_layout, set);
    vkDestroySampler(device, ignored, nullptr);
    guesttest::submit(device, cb);
  });
}

// A primary running a secondary that was freed after the primary was recorded.
TEST(VulkanStaleRecording, PrimaryWhoseSecondaryWasFreed) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer secondary = guesttest::new_command_buffer(device, VK_COMMAND_BUFFER_LEVEL_SECONDARY, &pool);
    VkCommandBufferInheritanceInfo inherit{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.pInheritanceInfo = &inherit;
    vkBeginCommandBuffer(secondary, &begin);
    vkCmdFillBuffer(secondary, guesttest::buffer_of(device, 4096), 0, 4096, 7);
    vkEndCommandBuffer(secondary);
    VkCommandBuffer primary = guesttest::recording_buffer(device);
    vkCmdExecuteCommands(primary, 1, &secondary);
    vkEndCommandBuffer(primary);
    vkFreeCommandBuffers(device, pool, 1, &secondary);
    guesttest::submit(device, primary);
  });
}

}  // namespace
