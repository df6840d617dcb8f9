// Pipeline state that extensions let a program set: vertex input from a
// pipeline or vkCmdSetVertexInputEXT, color write enables, and pipelines
// linked from libraries. The host refuses what breaks their rules before
// the driver sees it, and only the program's Vulkan is lost. Each class has
// a control in the rules that the device survives.
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "vk_feedback_pipeline.h"
#include "vk_objects.h"
#include "vk_refused.h"

namespace {

using namespace guesttest;

// Vertex input, from a pipeline or vkCmdSetVertexInputEXT
// (VK_EXT_vertex_input_dynamic_state): Mesa keeps bindings and attributes
// in arrays of the device's limits indexed by binding and location.

const std::vector<const char*> kVertexInput = {VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME,
                                               VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};

struct VertexInput {
  std::vector<VkVertexInputBindingDescription2EXT> bindings;
  std::vector<VkVertexInputAttributeDescription2EXT> attributes;
};

// The device's last binding and last location, each used once.
VertexInput last_binding_and_location(VkPhysicalDevice gpu) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(gpu, &props);
  const uint32_t binding = props.limits.maxVertexInputBindings - 1;
  VertexInput v;
  v.bindings.push_back({VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, binding, 16,
                        VK_VERTEX_INPUT_RATE_VERTEX, 1});
  v.attributes.push_back({VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr,
                          props.limits.maxVertexInputAttributes - 1, binding, VK_FORMAT_R32G32B32A32_SFLOAT, 0});
  return v;
}

void set_vertex_input(VkDevice device, const VertexInput& v) {
  auto set = device_command<PFN_vkCmdSetVertexInputEXT>(device, "vkCmdSetVertexInputEXT");
  VkCommandBuffer cb = recording_buffer(device);
  set(cb, static_cast<uint32_t>(v.bindings.size()), v.bindings.data(), static_cast<uint32_t>(v.attributes.size()),
      v.attributes.data());
  end_and_submit(device, cb);
}

// `change` spoils the device's last binding and location before they are set.
template <typename Change>
auto vertex_input_with(Change change) {
  return [change](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VertexInput v = last_binding_and_location(gpu);
    change(v);
    set_vertex_input(device, v);
  };
}

TEST(VulkanExtensionRanges, VertexInputOfTheDevicesLastBindingAndLocationRuns) {
  expect_accepted_with(kVertexInput, vertex_input_with([](VertexInput&) {}));
}

TEST(VulkanExtensionRanges, VertexInputOfABindingPastTheDevices) {
  expect_refused_with(kVertexInput, vertex_input_with([](VertexInput& v) {
    ++v.bindings[0].binding;
    ++v.attributes[0].binding;
  }));
}

TEST(VulkanExtensionRanges, VertexInputOfALocationPastTheDevices) {
  expect_refused_with(kVertexInput, vertex_input_with([](VertexInput& v) { ++v.attributes[0].location; }));
}

TEST(VulkanExtensionRanges, VertexInputOfAnAttributeOfNoBindingDescribed) {
  expect_refused_with(kVertexInput, vertex_input_with([](VertexInput& v) { v.attributes[0].binding = 0; }));
}

TEST(VulkanExtensionRanges, VertexInputNamingOneBindingTwice) {
  expect_refused_with(kVertexInput, vertex_input_with([](VertexInput& v) { v.bindings.push_back(v.bindings[0]); }));
}

TEST(VulkanExtensionRanges, VertexInputOfADivisorWithoutItsExtension) {
  expect_refused_with(kVertexInput, vertex_input_with([](VertexInput& v) {
    v.bindings[0].inputRate = VK_VERTEX_INPUT_RATE_INSTANCE;
    v.bindings[0].divisor = 2;
  }));
}

// The same numbers stated by a pipeline.
void pipeline_of_binding(VkDevice device, uint32_t binding) {
  const VkVertexInputBindingDescription b{binding, 16, VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription a{0, binding, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  input.vertexBindingDescriptionCount = 1;
  input.pVertexBindingDescriptions = &b;
  input.vertexAttributeDescriptionCount = 1;
  input.pVertexAttributeDescriptions = &a;
  feedback_pipeline(device, &input);
}

TEST(VulkanExtensionRanges, PipelineOfTheDevicesLastBindingRuns) {
  expect_accepted_with(kVertexInput, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu, &props);
    pipeline_of_binding(device, props.limits.maxVertexInputBindings - 1);
  });
}

TEST(VulkanExtensionRanges, PipelineOfABindingPastTheDevices) {
  expect_refused_with(kVertexInput, [](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu, &props);
    pipeline_of_binding(device, props.limits.maxVertexInputBindings);
  });
}

// VK_EXT_color_write_enable: at most maxColorAttachments enables.

const std::vector<const char*> kColorWrite = {VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME};

auto color_writes_past_the_last(uint32_t past) {
  return [past](VkInstance, VkPhysicalDevice gpu, VkDevice device) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu, &props);
    const std::vector<VkBool32> enables(props.limits.maxColorAttachments + past, VK_TRUE);
    VkCommandBuffer cb = recording_buffer(device);
    device_command<PFN_vkCmdSetColorWriteEnableEXT>(device, "vkCmdSetColorWriteEnableEXT")(
        cb, static_cast<uint32_t>(enables.size()), enables.data());
    end_and_submit(device, cb);
  };
}

TEST(VulkanExtensionRanges, ColorWriteEnablesOfEveryAttachmentRun) {
  expect_accepted_with(kColorWrite, color_writes_past_the_last(0));
}

TEST(VulkanExtensionRanges, ColorWriteEnablesOfMoreAttachmentsThanTheDevices) {
  expect_refused_with(kColorWrite, color_writes_past_the_last(1));
}

// VK_EXT_graphics_pipeline_library: parts made as libraries, then linked.
// Only a whole pipeline is bound; each part comes once; a library's
// shaders are linked under the sets they were checked against.

const std::vector<const char*> kLibraries = {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME,
                                             VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME,
                                             VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};
constexpr VkGraphicsPipelineLibraryFlagsEXT kVertexInputPart = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kPreRasterizationPart =
    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;

struct PipelinePart {
  VkGraphicsPipelineLibraryFlagsEXT parts = 0;   // none: no VkGraphicsPipelineLibraryCreateInfoEXT
  bool library = true;
  bool vertex_stage = false;                     // feedback.vert
  VkPipelineLayout layout = VK_NULL_HANDLE;
  std::vector<VkPipeline> linked;
};

VkPipelineLayout empty_layout(VkDevice device) {
  return guesttest::created(device, VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                            vkCreatePipelineLayout);
}

// Rasterization discarded, so no fragment part is needed.
VkPipeline pipeline_part(VkDevice device, const PipelinePart& p) {
  const VkPipelineShaderStageCreateInfo stage =
      p.vertex_stage ? feedback_stage(device) : VkPipelineShaderStageCreateInfo{};
  const guesttest::DiscardedPoints states;
  VkPipelineLibraryCreateInfoKHR linked{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR};
  linked.libraryCount = static_cast<uint32_t>(p.linked.size());
  linked.pLibraries = p.linked.data();
  VkGraphicsPipelineLibraryCreateInfoEXT parts{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT};
  parts.flags = p.parts;
  parts.pNext = p.linked.empty() ? nullptr : &linked;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.pNext = p.parts ? static_cast<void*>(&parts) : p.linked.empty() ? nullptr : static_cast<void*>(&linked);
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.flags = p.library ? VK_PIPELINE_CREATE_LIBRARY_BIT_KHR : 0;
  info.stageCount = p.vertex_stage ? 1 : 0;
  info.pStages = &stage;
  states.set_in(info);
  info.layout = p.layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  return pipeline;
}

// The vertex input and pre-rasterization libraries, the latter made with `layout`.
std::vector<VkPipeline> two_libraries(VkDevice device, VkPipelineLayout layout) {
  return {pipeline_part(device, {.parts = kVertexInputPart}),
          pipeline_part(device, {.parts = kPreRasterizationPart, .vertex_stage = true, .layout = layout})};
}

VkPipeline linked_pipeline(VkDevice device, std::vector<VkPipeline> libraries, VkPipelineLayout layout) {
  return pipeline_part(device, {.library = false, .layout = layout, .linked = std::move(libraries)});
}

void draw_with(VkDevice device, VkPipeline pipeline) {
  VkCommandBuffer cb = recording_buffer(device);
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea.extent = {16, 16};
  rendering.layerCount = 1;
  vkCmdBeginRendering(cb, &rendering);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdDraw(cb, 4, 1, 0, 0);
  end_rendering_and_submit(device, cb);
}

TEST(VulkanExtensionRanges, PipelineLinkedFromLibrariesDraws) {
  expect_accepted_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineLayout layout = empty_layout(device);
    const VkPipeline pipeline = linked_pipeline(device, two_libraries(device, layout), layout);
    if (!pipeline) std::exit(8);
    draw_with(device, pipeline);
  });
}

TEST(VulkanExtensionRanges, PipelineLibraryBoundForDrawing) {
  expect_refused_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    draw_with(device, two_libraries(device, empty_layout(device))[1]);
  });
}

TEST(VulkanExtensionRanges, PipelineLinkingOnePartTwice) {
  expect_refused_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineLayout layout = empty_layout(device);
    std::vector<VkPipeline> libraries = two_libraries(device, layout);
    libraries.push_back(libraries[1]);
    linked_pipeline(device, libraries, layout);
  });
}

TEST(VulkanExtensionRanges, PipelineLinkedWithoutItsVertexInput) {
  expect_refused_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineLayout layout = empty_layout(device);
    linked_pipeline(device, {two_libraries(device, layout)[1]}, layout);
  });
}

TEST(VulkanExtensionRanges, PipelineLinkingAPipelineThatIsNoLibrary) {
  expect_refused_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineLayout layout = empty_layout(device);
    std::vector<VkPipeline> libraries = two_libraries(device, layout);
    libraries[0] = feedback_pipeline(device);
    linked_pipeline(device, libraries, layout);
  });
}

TEST(VulkanExtensionRanges, PipelineLibraryOfAStageOfAPartItDoesNotState) {
  expect_refused_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    pipeline_part(device, {.parts = kVertexInputPart, .vertex_stage = true, .layout = empty_layout(device)});
  });
}

// The library's shaders were checked against set 0 of add_one's layout;
// linked under a layout whose set 0 is another, the driver would index
// its descriptors by the one they were not checked against.
TEST(VulkanExtensionRanges, PipelineLinkedUnderAnotherSetThanItsLibrarysShaders) {
  expect_refused_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineLayout made_with = layout_of(device, add_one_set_layout(device));
    const VkDescriptorSetLayoutBinding one{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, nullptr};
    VkDescriptorSetLayoutCreateInfo other_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    other_info.bindingCount = 1;
    other_info.pBindings = &one;
    VkDescriptorSetLayout other = VK_NULL_HANDLE;
    vkCreateDescriptorSetLayout(device, &other_info, nullptr, &other);
    linked_pipeline(device, two_libraries(device, made_with), layout_of(device, other));
  });
}

TEST(VulkanExtensionRanges, PipelineLinkedUnderTheSetsOfItsLibrarysShadersDraws) {
  expect_accepted_with(kLibraries, [](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkPipelineLayout made_with = layout_of(device, add_one_set_layout(device));
    const VkPipelineLayout same = layout_of(device, add_one_set_layout(device));
    const VkPipeline pipeline = linked_pipeline(device, two_libraries(device, made_with), same);
    if (!pipeline) std::exit(8);
    draw_with(device, pipeline);
  });
}

}  // namespace
