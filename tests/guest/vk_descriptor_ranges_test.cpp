// Descriptor writes, copies and binds past what their set layouts hold
// (dstArrayElement 2^28 crashed the renderer; 64 and dstBinding 4096 were
// written into the driver's memory silently): refused before the driver
// indexes its descriptor arrays by them.
#include <cstdint>
#include <functional>

#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;

// A write of one uniform buffer descriptor, 256 bytes of `buffer`.
struct UniformWrite {
  VkDescriptorBufferInfo info;
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  UniformWrite(VkDescriptorSet set, VkBuffer buffer) : info{buffer, 0, 256} {
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    write.pBufferInfo = &info;
  }
};

VkDescriptorSet add_one_set(VkDevice device) { return set_of(device, add_one_set_layout(device)); }

// A uniform write into an add_one set that `spoil` breaks is refused.
void expect_write_refused(const std::function<void(UniformWrite&)>& spoil) {
  expect_refused([&](VkInstance, VkPhysicalDevice, VkDevice device) {
    UniformWrite w(add_one_set(device), buffer_of(device, 4096));
    spoil(w);
    vkUpdateDescriptorSets(device, 1, &w.write, 0, nullptr);
  });
}

TEST(VulkanDescriptorRanges, WritesInsideTheLayoutRun) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkDescriptorSet set = add_one_set(device);
    VkBuffer buffer = buffer_of(device, 4096);
    UniformWrite w(set, buffer);
    VkDescriptorBufferInfo storage{buffer, 256, VK_WHOLE_SIZE};
    VkWriteDescriptorSet second = w.write;
    second.dstBinding = 1;
    second.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    second.pBufferInfo = &storage;
    VkWriteDescriptorSet writes[] = {w.write, second};
    vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);
  });
}

TEST(VulkanDescriptorRanges, ArrayElementOfTwoToThe28th) {
  expect_write_refused([](UniformWrite& w) { w.write.dstArrayElement = 1u << 28; });
}

TEST(VulkanDescriptorRanges, ArrayElementPastTheBindingsCount) {
  expect_write_refused([](UniformWrite& w) { w.write.dstArrayElement = 64; });
}

TEST(VulkanDescriptorRanges, BindingTheLayoutLacks) {
  expect_write_refused([](UniformWrite& w) { w.write.dstBinding = 4096; });
}

TEST(VulkanDescriptorRanges, MoreDescriptorsThanTheBindingsAfterHold) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkBuffer buffer = buffer_of(device, 4096);
    VkDescriptorBufferInfo infos[3] = {{buffer, 0, 16}, {buffer, 0, 16}, {buffer, 0, 16}};
    UniformWrite w(add_one_set(device), buffer);
    w.write.descriptorCount = 3;
    w.write.pBufferInfo = infos;
    vkUpdateDescriptorSets(device, 1, &w.write, 0, nullptr);
  });
}

TEST(VulkanDescriptorRanges, TypeTheBindingDoesNotHave) {
  expect_write_refused([](UniformWrite& w) { w.write.dstBinding = 1; });  // a storage buffer
}

TEST(VulkanDescriptorRanges, BufferRangePastItsEnd) {
  expect_write_refused([](UniformWrite& w) { w.info.offset = 4000; });
}

TEST(VulkanDescriptorRanges, BufferWriteWithoutBufferInfos) {
  expect_write_refused([](UniformWrite& w) { w.write.pBufferInfo = nullptr; });
}

TEST(VulkanDescriptorRanges, CopyPastTheSourcesBinding) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    VkCopyDescriptorSet copy{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
    copy.srcSet = add_one_set(device);
    copy.dstSet = add_one_set(device);
    copy.srcArrayElement = 1000;
    copy.descriptorCount = 1;
    vkUpdateDescriptorSets(device, 0, nullptr, 1, &copy);
  });
}

VkDescriptorSetLayout dynamic_layout(VkDevice device) {
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                       nullptr};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = 1;
  info.pBindings = &binding;
  return guesttest::created(device, info, vkCreateDescriptorSetLayout);
}

// A set of one dynamic uniform buffer of 256 bytes at 0 of a 4 KiB buffer,
// bound with `offsets`.
void bind_dynamic(VkDevice device, uint32_t first_set, std::initializer_list<uint32_t> offsets) {
  VkDescriptorSetLayout layout = dynamic_layout(device);
  VkDescriptorSet set = set_of(device, layout);
  UniformWrite w(set, buffer_of(device, 4096));
  w.write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  vkUpdateDescriptorSets(device, 1, &w.write, 0, nullptr);
  vkCmdBindDescriptorSets(recording_buffer(device), VK_PIPELINE_BIND_POINT_COMPUTE, layout_of(device, layout),
                          first_set, 1, &set, static_cast<uint32_t>(offsets.size()), offsets.begin());
}

TEST(VulkanDescriptorRanges, DynamicOffsetInsideTheBufferIsBound) {
  expect_accepted([](VkInstance, VkPhysicalDevice, VkDevice device) { bind_dynamic(device, 0, {3840}); });
}

TEST(VulkanDescriptorRanges, DynamicOffsetPastTheBuffer) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { bind_dynamic(device, 0, {1u << 30}); });
}

TEST(VulkanDescriptorRanges, FewerDynamicOffsetsThanDescriptors) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { bind_dynamic(device, 0, {}); });
}

TEST(VulkanDescriptorRanges, SetNumberThePipelineLayoutLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) { bind_dynamic(device, 7, {0}); });
}

}  // namespace
