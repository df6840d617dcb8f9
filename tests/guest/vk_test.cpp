// The Vulkan ICD through the real Vulkan loader, against a `conduit host`
// child: devices, and host-visible memory that behaves as the spec says
// (coherent memory written without a flush, copied on the GPU, read back
// through another mapping).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "add_one_comp.h"
#include "count_groups_comp.h"
#include "sums_comp.h"
#include "vk_device.h"
#include "vk_memory_fds.h"

namespace {

// A compute pipeline of `code`'s "main"; null when the host refused it.
VkPipeline compute_pipeline(VkDevice device, const uint32_t* code, size_t bytes, VkPipelineLayout layout) {
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = bytes;
  module_info.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  if (vkCreateShaderModule(device, &module_info, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
                "main", nullptr};
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult made = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(device, module, nullptr);  // a pipeline keeps what it was made of
  return made == VK_SUCCESS ? pipeline : VK_NULL_HANDLE;
}

// A layout of one set and one push-constant range.
VkPipelineLayout layout_pushing(VkDevice device, VkDescriptorSetLayout set_layout, const VkPushConstantRange& push) {
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  return vkCreatePipelineLayout(device, &info, nullptr, &layout) == VK_SUCCESS ? layout : VK_NULL_HANDLE;
}

class VulkanTest : public ::testing::Test {
 protected:
  // One host for every suite of the program: the ICD keeps its connection
  // for the process's life. It stops when the program exits.
  static void SetUpTestSuite() {
    if (host_) return;
    host_ = std::make_unique<guesttest::HostProcess>();
    guesttest::use_conduit_icd(*host_);
  }

  void SetUp() override {
    ASSERT_TRUE(host_->ok()) << host_->error();
    ASSERT_NE(instance_ = guesttest::make_instance(), VK_NULL_HANDLE);
    ASSERT_NE(gpu_ = guesttest::first_gpu(instance_), VK_NULL_HANDLE);
    ASSERT_NE(device_ = guesttest::make_device(gpu_, device_extensions()), VK_NULL_HANDLE);
    vkGetDeviceQueue(device_, 0, 0, &queue_);
  }

  virtual std::vector<const char*> device_extensions() const { return {}; }

  void TearDown() override {
    if (device_) vkDestroyDevice(device_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
  }

  // A host-visible, coherent buffer of `size` bytes and its memory.
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
  };
  Buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage) {
    Buffer b;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    EXPECT_EQ(vkCreateBuffer(device_, &info, nullptr, &b.buffer), VK_SUCCESS);
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device_, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties props{};
    vkGetPhysicalDeviceMemoryProperties(gpu_, &props);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < props.memoryTypeCount && type == UINT32_MAX; ++i)
      if ((req.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) type = i;
    EXPECT_NE(type, UINT32_MAX);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    EXPECT_EQ(vkAllocateMemory(device_, &alloc, nullptr, &b.memory), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(device_, b.buffer, b.memory, 0), VK_SUCCESS);
    return b;
  }
  // A pool of one set of `sizes`, in `pool`, and a set of `layout` from it, in `set`.
  void allocate_set(std::span<const VkDescriptorPoolSize> sizes, VkDescriptorSetLayout layout,
                    VkDescriptorPool* pool, VkDescriptorSet* set) {
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pool_info.pPoolSizes = sizes.data();
    ASSERT_EQ(vkCreateDescriptorPool(device_, &pool_info, nullptr, pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = *pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &layout;
    ASSERT_EQ(vkAllocateDescriptorSets(device_, &alloc, set), VK_SUCCESS);
  }

  void free_buffer(const Buffer& b) {
    vkDestroyBuffer(device_, b.buffer, nullptr);
    vkFreeMemory(device_, b.memory, nullptr);
  }

  // Records commands with `record` into a new command buffer, submits them
  // and waits for them; what they wrote is then visible to the host.
  template <typename Record>
  void run_and_wait(Record record) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    ASSERT_EQ(vkCreateCommandPool(device_, &pool_info, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cb;
    ASSERT_EQ(vkAllocateCommandBuffers(device_, &alloc, &cb), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ASSERT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    record(cb);
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         nullptr, 0, nullptr);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    ASSERT_EQ(vkCreateFence(device_, &fence_info, nullptr, &fence), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    ASSERT_EQ(vkQueueSubmit(queue_, 1, &submit, fence), VK_SUCCESS);
    ASSERT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
    vkDestroyFence(device_, fence, nullptr);
    vkDestroyCommandPool(device_, pool, nullptr);
  }

  // Copies `size` bytes from `src` to `dst` on the GPU and waits for it.
  void copy_and_wait(const Buffer& src, const Buffer& dst, VkDeviceSize size) {
    run_and_wait([&](VkCommandBuffer cb) {
      VkBufferCopy region{0, 0, size};
      vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region);
    });
  }

  static std::unique_ptr<guesttest::HostProcess> host_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice gpu_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
};

std::unique_ptr<guesttest::HostProcess> VulkanTest::host_;

TEST_F(VulkanTest, TheHostsDeviceIsSeen) {
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
  vkGetPhysicalDeviceProperties2(gpu_, &props);
  EXPECT_GE(props.properties.apiVersion, VK_API_VERSION_1_1);
  EXPECT_GT(std::strlen(props.properties.deviceName), 0u);
  EXPECT_GT(std::strlen(v12.driverName), 0u);  // the chained structure came back filled
  EXPECT_EQ(v12.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  EXPECT_EQ(v12.pNext, nullptr);  // the program's own pointers are left alone
  // The same handle each time, as a driver gives.
  VkPhysicalDevice again = VK_NULL_HANDLE;
  uint32_t n = 1;
  ASSERT_GE(vkEnumeratePhysicalDevices(instance_, &n, &again), VK_SUCCESS);
  EXPECT_EQ(again, gpu_);
}

TEST_F(VulkanTest, ExtensionsTheHostDoesNotCarryAreRefused) {
  const char* name = "VK_EXT_no_such_extension";
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &name;
  VkInstance other = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateInstance(&info, nullptr, &other), VK_ERROR_EXTENSION_NOT_PRESENT);
}

TEST_F(VulkanTest, CoherentMemoryWrittenWithoutFlushReachesTheGpu) {
  constexpr VkDeviceSize kSize = 64 * 1024;
  Buffer src = make_buffer(kSize, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  Buffer dst = make_buffer(kSize, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  void* in = nullptr;
  void* out = nullptr;
  ASSERT_EQ(vkMapMemory(device_, src.memory, 0, VK_WHOLE_SIZE, 0, &in), VK_SUCCESS);
  ASSERT_EQ(vkMapMemory(device_, dst.memory, 0, VK_WHOLE_SIZE, 0, &out), VK_SUCCESS);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    // A new pattern each round, in part of the buffer only the second time:
    // what changed must travel, what did not must stay.
    auto* bytes = static_cast<uint8_t*>(in);
    const size_t from = round == 1 ? kSize / 2 : 0;
    for (size_t i = from; i < kSize; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + round * 13);
    copy_and_wait(src, dst, kSize);  // no flush: the memory is coherent
    EXPECT_EQ(std::memcmp(out, in, kSize), 0);
  }
  vkUnmapMemory(device_, src.memory);
  vkUnmapMemory(device_, dst.memory);
  // Mapped again, the memory shows what the GPU wrote.
  ASSERT_EQ(vkMapMemory(device_, dst.memory, 0, VK_WHOLE_SIZE, 0, &out), VK_SUCCESS);
  EXPECT_EQ(static_cast<uint8_t*>(out)[kSize - 1], static_cast<uint8_t>((kSize - 1) * 7 + 2 * 13));
  vkUnmapMemory(device_, dst.memory);
  free_buffer(src);
  free_buffer(dst);
}

// A secondary command buffer, recorded and ended on its own, runs where its
// primary executes it (the host tracks each buffer's level and state).
TEST_F(VulkanTest, SecondaryCommandBuffersRunInTheirPrimary) {
  Buffer dst = make_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  ASSERT_EQ(vkCreateCommandPool(device_, &pool_info, nullptr, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer secondary;
  ASSERT_EQ(vkAllocateCommandBuffers(device_, &alloc, &secondary), VK_SUCCESS);
  VkCommandBufferInheritanceInfo inherit{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.pInheritanceInfo = &inherit;
  ASSERT_EQ(vkBeginCommandBuffer(secondary, &begin), VK_SUCCESS);
  vkCmdFillBuffer(secondary, dst.buffer, 0, 256, 0x01020304u);
  ASSERT_EQ(vkEndCommandBuffer(secondary), VK_SUCCESS);
  run_and_wait([&](VkCommandBuffer cb) { vkCmdExecuteCommands(cb, 1, &secondary); });
  void* out = nullptr;
  ASSERT_EQ(vkMapMemory(device_, dst.memory, 0, VK_WHOLE_SIZE, 0, &out), VK_SUCCESS);
  EXPECT_EQ(static_cast<const uint32_t*>(out)[63], 0x01020304u);
  vkUnmapMemory(device_, dst.memory);
  vkDestroyCommandPool(device_, pool, nullptr);
  free_buffer(dst);
}

TEST_F(VulkanTest, MemoryBeyondTheGuestsLimitIsRefused) {
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = VkDeviceSize{1} << 40;  // far past --max-guest-memory
  VkDeviceMemory memory = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateMemory(device_, &alloc, nullptr, &memory), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  // The device carries on.
  Buffer b = make_buffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  EXPECT_NE(b.memory, VK_NULL_HANDLE);
  free_buffer(b);
}

}  // namespace

namespace {

// vkUpdateDescriptorSetWithTemplate: the descriptors come out of the
// program's own structure as the template lays it out; a compute shader
// then reads the uniform buffer and writes the storage buffer they name.
TEST_F(VulkanTest, DescriptorSetsWrittenThroughATemplate) {
  Buffer in = make_buffer(256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  Buffer out = make_buffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  void* p = nullptr;
  ASSERT_EQ(vkMapMemory(device_, in.memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
  *static_cast<uint32_t*>(p) = 41;
  vkUnmapMemory(device_, in.memory);

  VkDescriptorSetLayout set_layout = guesttest::add_one_set_layout(device_);
  ASSERT_NE(set_layout, VK_NULL_HANDLE);
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
  VkDescriptorPool pool;
  VkDescriptorSet set;
  ASSERT_NO_FATAL_FAILURE(allocate_set(sizes, set_layout, &pool, &set));
  VkPipelineLayoutCreateInfo pl_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl_info.setLayoutCount = 1;
  pl_info.pSetLayouts = &set_layout;
  VkPipelineLayout pipeline_layout;
  ASSERT_EQ(vkCreatePipelineLayout(device_, &pl_info, nullptr, &pipeline_layout), VK_SUCCESS);

  // The program's structure: storage first, then a gap, then the uniform.
  struct Descriptors {
    VkDescriptorBufferInfo storage;
    uint64_t unrelated;
    VkDescriptorBufferInfo uniform;
  } data{{out.buffer, 0, VK_WHOLE_SIZE}, 0, {in.buffer, 0, VK_WHOLE_SIZE}};
  VkDescriptorUpdateTemplateEntry entries[2] = {
      {0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(Descriptors, uniform), sizeof(VkDescriptorBufferInfo)},
      {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(Descriptors, storage), sizeof(VkDescriptorBufferInfo)}};
  VkDescriptorUpdateTemplateCreateInfo t_info{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  t_info.descriptorUpdateEntryCount = 2;
  t_info.pDescriptorUpdateEntries = entries;
  t_info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  t_info.descriptorSetLayout = set_layout;
  VkDescriptorUpdateTemplate update;
  ASSERT_EQ(vkCreateDescriptorUpdateTemplate(device_, &t_info, nullptr, &update), VK_SUCCESS);
  vkUpdateDescriptorSetWithTemplate(device_, set, update, &data);

  VkPipeline pipeline = compute_pipeline(device_, add_one_comp, sizeof add_one_comp, pipeline_layout);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);

  run_and_wait([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, 1, 1, 1);
  });
  ASSERT_EQ(vkMapMemory(device_, out.memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
  EXPECT_EQ(*static_cast<uint32_t*>(p), 42u);
  vkUnmapMemory(device_, out.memory);

  vkDestroyPipeline(device_, pipeline, nullptr);
  vkDestroyDescriptorUpdateTemplate(device_, update, nullptr);
  vkDestroyPipelineLayout(device_, pipeline_layout, nullptr);
  vkDestroyDescriptorPool(device_, pool, nullptr);
  vkDestroyDescriptorSetLayout(device_, set_layout, nullptr);
  free_buffer(in);
  free_buffer(out);
}

// A pipeline whose layout holds what its shader uses is made and runs: a
// descriptor array of three, and a push-constant range that covers only the
// member the shader reads (bytes 16 to 20), as the host checks them.
TEST_F(VulkanTest, PipelineWhoseLayoutFitsItsShaderRuns) {
  const uint32_t inputs[3] = {5, 7, 0};
  Buffer buffers[3];
  VkDescriptorBufferInfo infos[3];
  for (int i = 0; i < 3; ++i) {
    buffers[i] = make_buffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    void* p = nullptr;
    ASSERT_EQ(vkMapMemory(device_, buffers[i].memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
    *static_cast<uint32_t*>(p) = inputs[i];
    vkUnmapMemory(device_, buffers[i].memory);
    infos[i] = {buffers[i].buffer, 0, VK_WHOLE_SIZE};
  }
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  VkDescriptorSetLayout set_layout;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout), VK_SUCCESS);
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
  VkDescriptorPool pool;
  VkDescriptorSet set;
  ASSERT_NO_FATAL_FAILURE(allocate_set({&size, 1}, set_layout, &pool, &set));
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.descriptorCount = 3;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = infos;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  VkPipelineLayout pipeline_layout = layout_pushing(device_, set_layout, {VK_SHADER_STAGE_COMPUTE_BIT, 16, 4});
  ASSERT_NE(pipeline_layout, VK_NULL_HANDLE);
  // The set layout may go before the pipeline layout made with it is used.
  vkDestroyDescriptorSetLayout(device_, set_layout, nullptr);

  VkPipeline pipeline = compute_pipeline(device_, sums_comp, sizeof sums_comp, pipeline_layout);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);

  const uint32_t add = 30;
  run_and_wait([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cb, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 16, 4, &add);
    vkCmdDispatch(cb, 1, 1, 1);
  });
  void* p = nullptr;
  ASSERT_EQ(vkMapMemory(device_, buffers[2].memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
  EXPECT_EQ(*static_cast<uint32_t*>(p), 42u);
  vkUnmapMemory(device_, buffers[2].memory);
  EXPECT_EQ(vkDeviceWaitIdle(device_), VK_SUCCESS);

  vkDestroyPipeline(device_, pipeline, nullptr);
  vkDestroyPipelineLayout(device_, pipeline_layout, nullptr);
  vkDestroyDescriptorPool(device_, pool, nullptr);
  for (const Buffer& b : buffers) free_buffer(b);
}

// Indirect dispatches read counts the command buffer itself may write
// (here vkCmdUpdateBuffer and vkCmdFillBuffer), which the host clamps on the
// device before the dispatch reads them. count_groups.comp adds its push
// constant once a workgroup, through the program's set: the program's
// pipeline, set and push constants must be bound again after the clamp's.
class IndirectDispatchTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    count_ = make_buffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    counts_ = make_buffer(256, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    ASSERT_NO_FATAL_FAILURE(make_program(0, &program_));
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    ASSERT_NO_FATAL_FAILURE(allocate_set({&size, 1}, program_.set_layout, &pool_, &set_));
    const VkDescriptorBufferInfo counted{count_.buffer, 0, VK_WHOLE_SIZE};
    guesttest::write_descriptor(device_, set_, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &counted);
    void* p = nullptr;  // memory of the guest's shared area holds what its last user left
    ASSERT_EQ(vkMapMemory(device_, count_.memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
    *static_cast<uint32_t*>(p) = 0;
    vkUnmapMemory(device_, count_.memory);
  }
  void TearDown() override {
    destroy_program(program_);
    vkDestroyDescriptorPool(device_, pool_, nullptr);
    free_buffer(count_);
    free_buffer(counts_);
    VulkanTest::TearDown();
  }

  // count_groups.comp's pipeline, of a layout pushing 4 bytes.
  struct Program {
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
  };
  // Makes `p`, its set layout of `flags`.
  void make_program(VkDescriptorSetLayoutCreateFlags flags, Program* p) {
    ASSERT_NE(p->set_layout = counted_set_layout(flags), VK_NULL_HANDLE);
    p->layout = layout_pushing(device_, p->set_layout, {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4});
    ASSERT_NE(p->layout, VK_NULL_HANDLE);
    p->pipeline = compute_pipeline(device_, count_groups_comp, sizeof count_groups_comp, p->layout);
    ASSERT_NE(p->pipeline, VK_NULL_HANDLE);
  }
  void destroy_program(const Program& p) {
    vkDestroyPipeline(device_, p.pipeline, nullptr);
    vkDestroyPipelineLayout(device_, p.layout, nullptr);
    vkDestroyDescriptorSetLayout(device_, p.set_layout, nullptr);
  }

  // The layout of count_groups.comp's one storage buffer.
  VkDescriptorSetLayout counted_set_layout(VkDescriptorSetLayoutCreateFlags flags) {
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                               nullptr};
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.flags = flags;
    info.bindingCount = 1;
    info.pBindings = &binding;
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    return vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout) == VK_SUCCESS ? layout : VK_NULL_HANDLE;
  }

  // The program's state, `add` pushed.
  void bind(VkCommandBuffer cb, uint32_t add) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, program_.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, program_.layout, 0, 1, &set_, 0,
                            nullptr);
    vkCmdPushConstants(cb, program_.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
  }
  // The command buffer's writes of `counts_` before the dispatch reads them.
  static void counts_written(VkCommandBuffer cb) {
    VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    written.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    written.dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &written, 0,
                         nullptr, 0, nullptr);
  }
  // Two indirect dispatches of counts the command buffer writes (6 and 8
  // workgroups), then a direct one; `bind_program` binds the program's state.
  void run_written_counts(const std::function<void(VkCommandBuffer)>& bind_program) {
    const VkDispatchIndirectCommand first{2, 3, 1}, second{4, 1, 2};
    run_and_wait([&](VkCommandBuffer cb) {
      vkCmdUpdateBuffer(cb, counts_.buffer, 0, sizeof first, &first);
      vkCmdUpdateBuffer(cb, counts_.buffer, 16, sizeof second, &second);
      counts_written(cb);
      bind_program(cb);
      vkCmdDispatchIndirect(cb, counts_.buffer, 0);  // 6 workgroups
      // 8 more, the program's state bound again after each clamp
      vkCmdDispatchIndirect(cb, counts_.buffer, 16);
      vkCmdDispatch(cb, 1, 1, 1);
    });
  }
  uint32_t total() {
    void* p = nullptr;
    EXPECT_EQ(vkMapMemory(device_, count_.memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
    const uint32_t value = p ? *static_cast<uint32_t*>(p) : 0;
    vkUnmapMemory(device_, count_.memory);
    return value;
  }

  Buffer count_, counts_;
  Program program_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

TEST_F(IndirectDispatchTest, RunsTheWorkgroupsItsCommandBufferWrote) {
  run_written_counts([&](VkCommandBuffer cb) { bind(cb, 5); });
  EXPECT_EQ(total(), 5u * (6 + 8 + 1));
}

TEST_F(IndirectDispatchTest, OfCountsPastTheLimitsRunsNoneAndEnds) {
  run_and_wait([&](VkCommandBuffer cb) {  // waits 10 s at most: 2^96 workgroups would take far longer
    vkCmdFillBuffer(cb, counts_.buffer, 0, 12, 0xffffffff);
    counts_written(cb);
    bind(cb, 7);
    vkCmdDispatchIndirect(cb, counts_.buffer, 0);
    vkCmdDispatch(cb, 1, 1, 1);  // the program's pipeline and push constant still bound
  });
  EXPECT_EQ(total(), 7u);
}

// The same program with its buffer pushed (VK_KHR_push_descriptor), as
// zink pushes its uniforms before each dispatch: the clamp's own set
// disturbs the pushed one, which the host pushes again.
class PushedIndirectDispatchTest : public IndirectDispatchTest {
 protected:
  std::vector<const char*> device_extensions() const override { return {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME}; }
  void SetUp() override {
    IndirectDispatchTest::SetUp();
    ASSERT_NO_FATAL_FAILURE(
        make_program(VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, &pushed_));
  }
  void TearDown() override {
    destroy_program(pushed_);
    IndirectDispatchTest::TearDown();
  }
  void bind_pushing(VkCommandBuffer cb, uint32_t add) {
    auto push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(device_, "vkCmdPushDescriptorSetKHR"));
    ASSERT_NE(push, nullptr);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pushed_.pipeline);
    const VkDescriptorBufferInfo counted{count_.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &counted;
    push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pushed_.layout, 0, 1, &write);
    vkCmdPushConstants(cb, pushed_.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
  }

  Program pushed_;
};

TEST_F(PushedIndirectDispatchTest, RunsThroughItsPushedSet) {
  run_written_counts([&](VkCommandBuffer cb) { bind_pushing(cb, 3); });
  EXPECT_EQ(total(), 3u * (6 + 8 + 1));
}

TEST_F(IndirectDispatchTest, OfMoreWorkgroupsThanTheHostAllowsRunsNone) {
  const VkDispatchIndirectCommand over{4096, 4096, 2}, within{3, 1, 1};  // 2^25 workgroups, the host's limit 2^24
  run_and_wait([&](VkCommandBuffer cb) {
    vkCmdUpdateBuffer(cb, counts_.buffer, 0, sizeof over, &over);
    vkCmdUpdateBuffer(cb, counts_.buffer, 16, sizeof within, &within);
    counts_written(cb);
    bind(cb, 1);
    vkCmdDispatchIndirect(cb, counts_.buffer, 0);
    vkCmdDispatchIndirect(cb, counts_.buffer, 16);
  });
  EXPECT_EQ(total(), 3u);
}

// Memory exported as an opaque fd by one device and imported by a second
// (VK_KHR_external_memory_fd): both see the same bytes, whichever side
// writes them, through mappings and on the GPU.
class MemoryFdTest : public VulkanTest {
 protected:
  std::vector<const char*> device_extensions() const override { return {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME}; }

  // A host-visible, coherent type for `type_bits`.
  uint32_t coherent_type(uint32_t type_bits) {
    VkPhysicalDeviceMemoryProperties props{};
    vkGetPhysicalDeviceMemoryProperties(gpu_, &props);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
      if ((type_bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
    return UINT32_MAX;
  }
};

TEST_F(MemoryFdTest, MemoryImportedOnASecondDeviceSharesItsBytes) {
  constexpr VkDeviceSize kBytes = 4096;
  constexpr uint32_t kWords = kBytes / 4;
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, nullptr,
                                            VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
  buffer_info.size = kBytes;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer shared = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateBuffer(device_, &buffer_info, nullptr, &shared), VK_SUCCESS);
  VkMemoryRequirements need{};
  vkGetBufferMemoryRequirements(device_, shared, &need);
  const uint32_t type = coherent_type(need.memoryTypeBits);
  ASSERT_NE(type, UINT32_MAX);
  VkDeviceMemory exported = guesttest::exportable_memory(device_, need.size, type);
  ASSERT_NE(exported, VK_NULL_HANDLE);
  ASSERT_EQ(vkBindBufferMemory(device_, shared, exported, 0), VK_SUCCESS);
  uint32_t* words = nullptr;
  ASSERT_EQ(vkMapMemory(device_, exported, 0, kBytes, 0, reinterpret_cast<void**>(&words)), VK_SUCCESS);
  for (uint32_t i = 0; i < kWords; ++i) words[i] = i * 3;
  vkUnmapMemory(device_, exported);

  const int fd = guesttest::memory_fd(device_, exported);
  ASSERT_GE(fd, 0);
  VkDevice second = guesttest::make_device(gpu_, device_extensions());
  ASSERT_NE(second, VK_NULL_HANDLE);
  VkDeviceMemory imported = VK_NULL_HANDLE;
  ASSERT_EQ(guesttest::import_memory(second, fd, need.size, type, &imported), VK_SUCCESS);
  uint32_t* seen = nullptr;
  ASSERT_EQ(vkMapMemory(second, imported, 0, kBytes, 0, reinterpret_cast<void**>(&seen)), VK_SUCCESS);
  EXPECT_EQ(seen[1], 3u);  // the exporter's writes, through the importer's mapping
  EXPECT_EQ(seen[kWords - 1], (kWords - 1) * 3);

  // The importer's writes reach the exporter's GPU work...
  for (uint32_t i = 0; i < kWords; ++i) seen[i] = 7 * i + 1;
  Buffer copy = make_buffer(kBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  run_and_wait([&](VkCommandBuffer cb) {
    const VkBufferCopy region{0, 0, kBytes};
    vkCmdCopyBuffer(cb, shared, copy.buffer, 1, &region);
  });
  uint32_t* copied = nullptr;
  ASSERT_EQ(vkMapMemory(device_, copy.memory, 0, kBytes, 0, reinterpret_cast<void**>(&copied)), VK_SUCCESS);
  EXPECT_EQ(copied[5], 36u);
  EXPECT_EQ(copied[kWords - 1], 7 * (kWords - 1) + 1);
  vkUnmapMemory(device_, copy.memory);

  // ...and what that GPU work writes shows in the importer's mapping.
  run_and_wait([&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, shared, 0, kBytes, 0xc0ffee); });
  EXPECT_EQ(seen[0], 0xc0ffeeu);
  EXPECT_EQ(seen[kWords - 1], 0xc0ffeeu);

  vkUnmapMemory(second, imported);
  vkFreeMemory(second, imported, nullptr);
  vkDestroyDevice(second, nullptr);
  free_buffer(copy);
  vkDestroyBuffer(device_, shared, nullptr);
  vkFreeMemory(device_, exported, nullptr);
}

// An fd the program made itself, or one whose export was imported
// already, names no memory: the import fails and the device carries on.
TEST_F(MemoryFdTest, FdsThatNameNoExportAreInvalidHandles) {
  VkDeviceMemory exported = guesttest::exportable_memory(device_, 4096, coherent_type(~0u));
  ASSERT_NE(exported, VK_NULL_HANDLE);
  const int fd = guesttest::memory_fd(device_, exported);
  ASSERT_GE(fd, 0);
  const int again = dup(fd);
  VkDeviceMemory imported = VK_NULL_HANDLE;
  ASSERT_EQ(guesttest::import_memory(device_, fd, 4096, coherent_type(~0u), &imported), VK_SUCCESS);
  VkDeviceMemory twice = VK_NULL_HANDLE;
  EXPECT_EQ(guesttest::import_memory(device_, again, 4096, coherent_type(~0u), &twice),
            VK_ERROR_INVALID_EXTERNAL_HANDLE);
  close(again);
  const int own = memfd_create("not-an-export", 0);
  ASSERT_EQ(ftruncate(own, 4096), 0);
  EXPECT_EQ(guesttest::import_memory(device_, own, 4096, coherent_type(~0u), &twice),
            VK_ERROR_INVALID_EXTERNAL_HANDLE);
  close(own);
  vkFreeMemory(device_, imported, nullptr);
  vkFreeMemory(device_, exported, nullptr);
  Buffer still = make_buffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);  // the device works on
  free_buffer(still);
}

}  // namespace
