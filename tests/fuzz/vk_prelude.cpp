#include "vk_prelude.h"

#include <array>
#include <type_traits>
#include <vector>

#include "add_one_comp.h"
#include "fuzz_frag.h"
#include "fuzz_vert.h"

namespace fuzz::vk {
namespace {

using wire::vk::VkOp;


constexpr VkDeviceSize kMemoryBytes = 1 << 20;
constexpr VkDeviceSize kLargeBufferAt = 65536;
constexpr VkDeviceSize kImageAt = 262144;
constexpr VkFormat kImageFormat = VK_FORMAT_R8G8B8A8_UNORM;

constexpr PreludeObject kObjects[] = {
    {VK_OBJECT_TYPE_INSTANCE, kInstance},
    {VK_OBJECT_TYPE_PHYSICAL_DEVICE, kPhysicalDevice},
    {VK_OBJECT_TYPE_DEVICE, kDevice},
    {VK_OBJECT_TYPE_QUEUE, kQueue},
    {VK_OBJECT_TYPE_DEVICE_MEMORY, kMemory},
    {VK_OBJECT_TYPE_DEVICE_MEMORY, kSpareMemory},
    {VK_OBJECT_TYPE_BUFFER, kSmallBuffer},
    {VK_OBJECT_TYPE_BUFFER, kLargeBuffer},
    {VK_OBJECT_TYPE_BUFFER, kBareBuffer},
    {VK_OBJECT_TYPE_IMAGE, kImage},
    {VK_OBJECT_TYPE_IMAGE_VIEW, kImageView},
    {VK_OBJECT_TYPE_BUFFER_VIEW, kBufferView},
    {VK_OBJECT_TYPE_SAMPLER, kSampler},
    {VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, kSetLayout},
    {VK_OBJECT_TYPE_PIPELINE_LAYOUT, kPipelineLayout},
    {VK_OBJECT_TYPE_DESCRIPTOR_POOL, kDescriptorPool},
    {VK_OBJECT_TYPE_DESCRIPTOR_SET, kDescriptorSet},
    {VK_OBJECT_TYPE_SHADER_MODULE, kComputeShader},
    {VK_OBJECT_TYPE_PIPELINE, kComputePipeline},
    {VK_OBJECT_TYPE_SHADER_MODULE, kVertexShader},
    {VK_OBJECT_TYPE_SHADER_MODULE, kFragmentShader},
    {VK_OBJECT_TYPE_RENDER_PASS, kRenderPass},
    {VK_OBJECT_TYPE_FRAMEBUFFER, kFramebuffer},
    {VK_OBJECT_TYPE_PIPELINE, kGraphicsPipeline},
    {VK_OBJECT_TYPE_COMMAND_POOL, kCommandPool},
    {VK_OBJECT_TYPE_COMMAND_BUFFER, kCommandBuffer},
    {VK_OBJECT_TYPE_COMMAND_BUFFER, kSecondaryBuffer},
    {VK_OBJECT_TYPE_FENCE, kFence},
    {VK_OBJECT_TYPE_SEMAPHORE, kSemaphore},
    {VK_OBJECT_TYPE_EVENT, kEvent},
    {VK_OBJECT_TYPE_QUERY_POOL, kQueryPool},
};

// Encodes the creation of the object `id` of the device from `info`;
// `Args` is the command's generated argument list (device, info,
// allocator, where the handle goes).
template <typename Args, typename Info>
void put_create(wire::Writer& w, VkOp op, const Info& info, uint64_t id) {
  [[maybe_unused]] const auto [device, create_info, allocator, handle] = Args{};
  std::remove_pointer_t<decltype(handle)> made{};
  put(w, op, Args{as<VkDevice>(kDevice), &info, nullptr, &made}, {id});
}

void make_device(wire::Writer& w) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo instance{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance.pApplicationInfo = &app;
  VkInstance made_instance{};
  put(w, VkOp::vkCreateInstance, wire::vk::VkArgs_vkCreateInstance{&instance, nullptr, &made_instance}, {kInstance});

  uint32_t gpus = 1;
  VkPhysicalDevice gpu{};
  put(w, VkOp::vkEnumeratePhysicalDevices,
      wire::vk::VkArgs_vkEnumeratePhysicalDevices{as<VkInstance>(kInstance), &gpus, &gpu});

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device.queueCreateInfoCount = 1;
  device.pQueueCreateInfos = &queue;
  VkDevice made_device{};
  put(w, VkOp::vkCreateDevice,
      wire::vk::VkArgs_vkCreateDevice{as<VkPhysicalDevice>(kPhysicalDevice), &device, nullptr, &made_device},
      {kDevice});
  VkQueue made_queue{};
  put(w, VkOp::vkGetDeviceQueue, wire::vk::VkArgs_vkGetDeviceQueue{as<VkDevice>(kDevice), 0, 0, &made_queue},
      {kQueue});
}

void make_memory(wire::Writer& w, uint64_t id, VkDeviceSize size) {
  // Lavapipe's one memory type: device-local, host-visible and coherent.
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, size, 0};
  put_create<wire::vk::VkArgs_vkAllocateMemory>(w, VkOp::vkAllocateMemory, info, id);
}

void make_buffer(wire::Writer& w, uint64_t id, VkDeviceSize size) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
               VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
               VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  put_create<wire::vk::VkArgs_vkCreateBuffer>(w, VkOp::vkCreateBuffer, info, id);
}

void make_resources(wire::Writer& w) {
  const auto device = as<VkDevice>(kDevice);
  make_memory(w, kMemory, kMemoryBytes);
  make_memory(w, kSpareMemory, 4096);
  make_buffer(w, kSmallBuffer, kSmallBufferBytes);
  make_buffer(w, kLargeBuffer, kLargeBufferBytes);
  make_buffer(w, kBareBuffer, kSmallBufferBytes);
  put(w, VkOp::vkBindBufferMemory,
      wire::vk::VkArgs_vkBindBufferMemory{device, as<VkBuffer>(kSmallBuffer), as<VkDeviceMemory>(kMemory), 0});
  put(w, VkOp::vkBindBufferMemory,
      wire::vk::VkArgs_vkBindBufferMemory{device, as<VkBuffer>(kLargeBuffer), as<VkDeviceMemory>(kMemory),
                                          kLargeBufferAt});

  const VkImageCreateInfo image{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                .imageType = VK_IMAGE_TYPE_2D,
                                .format = kImageFormat,
                                .extent = {kImageSize, kImageSize, 1},
                                .mipLevels = kImageMips,
                                .arrayLayers = kImageLayers,
                                .samples = VK_SAMPLE_COUNT_1_BIT,
                                .tiling = VK_IMAGE_TILING_OPTIMAL,
                                .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                         VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
  put_create<wire::vk::VkArgs_vkCreateImage>(w, VkOp::vkCreateImage, image, kImage);
  put(w, VkOp::vkBindImageMemory,
      wire::vk::VkArgs_vkBindImageMemory{device, as<VkImage>(kImage), as<VkDeviceMemory>(kMemory), kImageAt});

  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = as<VkImage>(kImage);
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = kImageFormat;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  put_create<wire::vk::VkArgs_vkCreateImageView>(w, VkOp::vkCreateImageView, view, kImageView);

  VkBufferViewCreateInfo texels{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  texels.buffer = as<VkBuffer>(kSmallBuffer);
  texels.format = VK_FORMAT_R32_UINT;
  texels.range = VK_WHOLE_SIZE;
  put_create<wire::vk::VkArgs_vkCreateBufferView>(w, VkOp::vkCreateBufferView, texels, kBufferView);

  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.maxLod = VK_LOD_CLAMP_NONE;
  put_create<wire::vk::VkArgs_vkCreateSampler>(w, VkOp::vkCreateSampler, sampler, kSampler);
}

// Binding 0: a uniform buffer, 1: a storage buffer (add_one.comp's two),
// 2: two combined image samplers, 3: a storage image, 4: a uniform texel
// buffer; with push constants, for every descriptor class the host checks.
void make_descriptors(wire::Writer& w) {
  const auto device = as<VkDevice>(kDevice);
  const VkDescriptorSetLayoutBinding bindings[] = {
      {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, nullptr},
      {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, VK_SHADER_STAGE_ALL, nullptr},
      {3, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_ALL, nullptr},
      {4, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_ALL, nullptr},
  };
  VkDescriptorSetLayoutCreateInfo layout{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layout.bindingCount = std::size(bindings);
  layout.pBindings = bindings;
  put_create<wire::vk::VkArgs_vkCreateDescriptorSetLayout>(w, VkOp::vkCreateDescriptorSetLayout,
                                                           layout, kSetLayout);

  const auto set_layout = as<VkDescriptorSetLayout>(kSetLayout);
  const VkPushConstantRange push{VK_SHADER_STAGE_ALL, 0, kPushConstantBytes};
  const VkPipelineLayoutCreateInfo pipeline_layout{
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &push};
  put_create<wire::vk::VkArgs_vkCreatePipelineLayout>(w, VkOp::vkCreatePipelineLayout,
                                                      pipeline_layout, kPipelineLayout);

  std::vector<VkDescriptorPoolSize> sizes;
  for (const auto& b : bindings) sizes.push_back({b.descriptorType, 4});
  const VkDescriptorPoolCreateInfo pool{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                        .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                        .maxSets = 4,
                                        .poolSizeCount = static_cast<uint32_t>(sizes.size()),
                                        .pPoolSizes = sizes.data()};
  put_create<wire::vk::VkArgs_vkCreateDescriptorPool>(w, VkOp::vkCreateDescriptorPool, pool,
                                                      kDescriptorPool);
  VkDescriptorSetAllocateInfo set{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set.descriptorPool = as<VkDescriptorPool>(kDescriptorPool);
  set.descriptorSetCount = 1;
  set.pSetLayouts = &set_layout;
  VkDescriptorSet made_set{};
  put(w, VkOp::vkAllocateDescriptorSets, wire::vk::VkArgs_vkAllocateDescriptorSets{device, &set, &made_set},
      {kDescriptorSet});

  // Every binding written, so a dispatch or draw reads what the set names.
  const VkDescriptorBufferInfo uniform{as<VkBuffer>(kSmallBuffer), 0, 256};
  const VkDescriptorBufferInfo storage{as<VkBuffer>(kLargeBuffer), 0, VK_WHOLE_SIZE};
  const VkDescriptorImageInfo sampled[2] = {
      {as<VkSampler>(kSampler), as<VkImageView>(kImageView), VK_IMAGE_LAYOUT_GENERAL},
      {as<VkSampler>(kSampler), as<VkImageView>(kImageView), VK_IMAGE_LAYOUT_GENERAL}};
  const VkDescriptorImageInfo storage_image{VK_NULL_HANDLE, as<VkImageView>(kImageView), VK_IMAGE_LAYOUT_GENERAL};
  const VkBufferView texels = as<VkBufferView>(kBufferView);
  const auto dst = as<VkDescriptorSet>(kDescriptorSet);
  const VkWriteDescriptorSet writes[] = {
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, dst, 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nullptr,
       &uniform, nullptr},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, dst, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr,
       &storage, nullptr},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, dst, 2, 0, 2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
       sampled, nullptr, nullptr},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, dst, 3, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
       &storage_image, nullptr, nullptr},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, dst, 4, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
       nullptr, nullptr, &texels},
  };
  put(w, VkOp::vkUpdateDescriptorSets,
      wire::vk::VkArgs_vkUpdateDescriptorSets{device, std::size(writes), writes, 0, nullptr});
}

void make_shader(wire::Writer& w, uint64_t id, std::span<const uint32_t> code) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = code.size_bytes();
  info.pCode = code.data();
  put_create<wire::vk::VkArgs_vkCreateShaderModule>(w, VkOp::vkCreateShaderModule, info, id);
}

// Encodes the creation of one pipeline of `info`, the object `id`; `Args`
// is the command's generated argument list.
template <typename Args, typename Info>
void put_pipeline(wire::Writer& w, VkOp op, const Info& info, uint64_t id) {
  VkPipeline made{};
  put(w, op, Args{as<VkDevice>(kDevice), VK_NULL_HANDLE, 1, &info, nullptr, &made}, {id});
}

void make_compute_pipeline(wire::Writer& w) {
  make_shader(w, kComputeShader, add_one_comp);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                as<VkShaderModule>(kComputeShader), "main", nullptr};
  info.layout = as<VkPipelineLayout>(kPipelineLayout);
  put_pipeline<wire::vk::VkArgs_vkCreateComputePipelines>(w, VkOp::vkCreateComputePipelines, info,
                                                          kComputePipeline);
}

void make_render_pass(wire::Writer& w) {
  const VkAttachmentDescription colour{.format = kImageFormat,
                                       .samples = VK_SAMPLE_COUNT_1_BIT,
                                       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                       .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                       .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                       .finalLayout = VK_IMAGE_LAYOUT_GENERAL};
  const VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkRenderPassCreateInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  pass.attachmentCount = 1;
  pass.pAttachments = &colour;
  pass.subpassCount = 1;
  pass.pSubpasses = &subpass;
  put_create<wire::vk::VkArgs_vkCreateRenderPass>(w, VkOp::vkCreateRenderPass, pass, kRenderPass);

  const auto view = as<VkImageView>(kImageView);
  VkFramebufferCreateInfo framebuffer{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  framebuffer.renderPass = as<VkRenderPass>(kRenderPass);
  framebuffer.attachmentCount = 1;
  framebuffer.pAttachments = &view;
  framebuffer.width = framebuffer.height = kImageSize;
  framebuffer.layers = 1;
  put_create<wire::vk::VkArgs_vkCreateFramebuffer>(w, VkOp::vkCreateFramebuffer, framebuffer,
                                                   kFramebuffer);
}

// Viewport and scissor dynamic, so a stream sets them (hostile ones too).
void make_graphics_pipeline(wire::Writer& w) {
  make_shader(w, kVertexShader, fuzz_vert);
  make_shader(w, kFragmentShader, fuzz_frag);
  const VkPipelineShaderStageCreateInfo stages[] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
       as<VkShaderModule>(kVertexShader), "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
       as<VkShaderModule>(kFragmentShader), "main", nullptr}};
  const VkVertexInputBindingDescription binding{0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  input.vertexBindingDescriptionCount = 1;
  input.pVertexBindingDescriptions = &binding;
  input.vertexAttributeDescriptionCount = 1;
  input.pVertexAttributeDescriptions = &attribute;
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = 0xf;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = std::size(dynamic_states);
  dynamic.pDynamicStates = dynamic_states;
  const VkGraphicsPipelineCreateInfo info{.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                          .stageCount = static_cast<uint32_t>(std::size(stages)),
                                          .pStages = stages,
                                          .pVertexInputState = &input,
                                          .pInputAssemblyState = &assembly,
                                          .pViewportState = &viewport,
                                          .pRasterizationState = &raster,
                                          .pMultisampleState = &multisample,
                                          .pColorBlendState = &blend,
                                          .pDynamicState = &dynamic,
                                          .layout = as<VkPipelineLayout>(kPipelineLayout),
                                          .renderPass = as<VkRenderPass>(kRenderPass)};
  put_pipeline<wire::vk::VkArgs_vkCreateGraphicsPipelines>(w, VkOp::vkCreateGraphicsPipelines, info,
                                                           kGraphicsPipeline);
}

void make_commands(wire::Writer& w) {
  const auto device = as<VkDevice>(kDevice);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  put_create<wire::vk::VkArgs_vkCreateCommandPool>(w, VkOp::vkCreateCommandPool, pool,
                                                   kCommandPool);
  for (auto [level, id] : {std::pair{VK_COMMAND_BUFFER_LEVEL_PRIMARY, kCommandBuffer},
                           std::pair{VK_COMMAND_BUFFER_LEVEL_SECONDARY, kSecondaryBuffer}}) {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = as<VkCommandPool>(kCommandPool);
    info.level = level;
    info.commandBufferCount = 1;
    VkCommandBuffer made{};
    put(w, VkOp::vkAllocateCommandBuffers, wire::vk::VkArgs_vkAllocateCommandBuffers{device, &info, &made}, {id});
  }

  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  put_create<wire::vk::VkArgs_vkCreateFence>(w, VkOp::vkCreateFence, fence, kFence);
  VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  put_create<wire::vk::VkArgs_vkCreateSemaphore>(w, VkOp::vkCreateSemaphore, semaphore, kSemaphore);
  VkEventCreateInfo event{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  put_create<wire::vk::VkArgs_vkCreateEvent>(w, VkOp::vkCreateEvent, event, kEvent);
  VkQueryPoolCreateInfo queries{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  queries.queryType = VK_QUERY_TYPE_OCCLUSION;
  queries.queryCount = kQueries;
  put_create<wire::vk::VkArgs_vkCreateQueryPool>(w, VkOp::vkCreateQueryPool, queries, kQueryPool);

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  put(w, VkOp::vkBeginCommandBuffer,
      wire::vk::VkArgs_vkBeginCommandBuffer{as<VkCommandBuffer>(kCommandBuffer), &begin});
}

std::vector<std::byte> bytes_of(const wire::Writer& w) { return {w.bytes().begin(), w.bytes().end()}; }

}  // namespace

std::span<const PreludeObject> prelude_objects() { return kObjects; }

void put_command(wire::Writer& w, uint32_t opcode, const void* args, std::initializer_list<uint64_t> made) {
  const wire::vk::CommandDesc* cmd = wire::vk::command_desc(opcode);
  const std::vector<uint64_t> ids(made);
  WireIds handles(ids);
  const size_t at = w.begin(opcode);
  wire::vk::encode_args(w, *cmd, args, handles);
  w.end(at);
}

std::vector<std::byte> prelude_commands() {
  wire::Writer w;
  make_device(w);
  make_resources(w);
  make_descriptors(w);
  make_compute_pipeline(w);
  make_render_pass(w);
  make_graphics_pipeline(w);
  make_commands(w);
  return bytes_of(w);
}

// What the input recorded, run: ended, submitted with the fence, waited for
// (the host waits a bounded slice; an input that left the buffer unended or
// submitted it already is refused here, which loses only its own device).
std::vector<std::byte> epilogue_commands() {
  wire::Writer w;
  const auto cb = as<VkCommandBuffer>(kCommandBuffer);
  put(w, VkOp::vkEndCommandBuffer, wire::vk::VkArgs_vkEndCommandBuffer{cb});
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  put(w, VkOp::vkQueueSubmit, wire::vk::VkArgs_vkQueueSubmit{as<VkQueue>(kQueue), 1, &submit, as<VkFence>(kFence)});
  const auto fence = as<VkFence>(kFence);
  put(w, VkOp::vkWaitForFences,
      wire::vk::VkArgs_vkWaitForFences{as<VkDevice>(kDevice), 1, &fence, VK_TRUE, 1'000'000'000});
  return bytes_of(w);
}

}  // namespace fuzz::vk
