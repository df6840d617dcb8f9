// Shader modules drivers would parse unchecked, and pipelines whose layouts
// do not hold what their shaders use (lavapipe crashed on a valid shader
// whose set the layout lacked, on a mutated body and on an id bound of
// 0xffffffff): the host refuses each, and only the program's Vulkan is lost.
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "add_one_comp.h"
#include "spec_sized_comp.h"
#include "sums_comp.h"
#include "vk_refused.h"

namespace {

using guesttest::expect_refused;

std::vector<uint32_t> add_one_words() { return {std::begin(add_one_comp), std::end(add_one_comp)}; }

// The create info of a module of `words`, which it points to.
VkShaderModuleCreateInfo module_info(const std::vector<uint32_t>& words) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = words.size() * 4;
  info.pCode = words.data();
  return info;
}

VkShaderModule make_module(VkDevice device, const std::vector<uint32_t>& words) {
  return guesttest::created(device, module_info(words), vkCreateShaderModule);
}

VkDescriptorSetLayout set_layout(VkDevice device, std::vector<VkDescriptorSetLayoutBinding> bindings) {
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = static_cast<uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  return guesttest::created(device, info, vkCreateDescriptorSetLayout);
}

VkPipelineLayout pipeline_layout(VkDevice device, std::vector<VkDescriptorSetLayout> sets,
                                 std::vector<VkPushConstantRange> push = {}) {
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = static_cast<uint32_t>(sets.size());
  info.pSetLayouts = sets.data();
  info.pushConstantRangeCount = static_cast<uint32_t>(push.size());
  info.pPushConstantRanges = push.data();
  return guesttest::created(device, info, vkCreatePipelineLayout);
}

void compute_pipeline(VkDevice device, VkShaderModule module, VkPipelineLayout layout, const char* entry = "main") {
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                module, entry, nullptr};
  info.layout = layout;
  VkPipeline pipeline;
  vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
}

// A pipeline of a created add_one.comp module with a module of `chained`
// chained to its stage, of `layout`.
void add_one_beside_chained(VkDevice device, const std::vector<uint32_t>& chained,
                            VkPipelineLayout layout) {
  const VkShaderModuleCreateInfo chained_info = module_info(chained);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &chained_info, 0,
                VK_SHADER_STAGE_COMPUTE_BIT, make_module(device, add_one_words()), "main", nullptr};
  info.layout = layout;
  VkPipeline pipeline;
  vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
}

// tests/guest/shaders/sums.comp's set: `count` storage buffers at binding 0.
VkDescriptorSetLayout sums_set(VkDevice device, uint32_t count,
                               VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) {
  return set_layout(device, {{0, type, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}});
}

// add_one.comp with its word `index` set to `value` is refused.
void expect_altered_module_refused(size_t index, uint32_t value) {
  expect_refused([=](VkInstance, VkPhysicalDevice, VkDevice device) {
    std::vector<uint32_t> words = add_one_words();
    words[index] = value;
    make_module(device, words);
  });
}

// A pipeline of add_one.comp whose layout's one set has `bindings` is refused.
void expect_add_one_refused_with(const std::vector<VkDescriptorSetLayoutBinding>& bindings) {
  expect_refused([&](VkInstance, VkPhysicalDevice, VkDevice device) {
    const VkDescriptorSetLayout set = set_layout(device, bindings);
    compute_pipeline(device, make_module(device, add_one_words()), pipeline_layout(device, {set}));
  });
}

// A pipeline of sums.comp with `buffers` storage buffers and `push` is refused.
void expect_sums_refused_with(uint32_t buffers, const VkPushConstantRange& push) {
  expect_refused([&](VkInstance, VkPhysicalDevice, VkDevice device) {
    const std::vector<uint32_t> sums(std::begin(sums_comp), std::end(sums_comp));
    compute_pipeline(device, make_module(device, sums),
                     pipeline_layout(device, {sums_set(device, buffers)}, {push}));
  });
}

TEST(VulkanShaders, ModuleWithoutTheMagicNumber) {
  expect_altered_module_refused(0, 0x03022307);  // the magic number byte-swapped
}

TEST(VulkanShaders, ModuleWithAnIdBoundOfAllOnes) { expect_altered_module_refused(3, 0xffffffff); }

// add_one.comp's addition reads an id nothing defines (the bound itself).
TEST(VulkanShaders, ModuleWithAMutatedBody) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    std::vector<uint32_t> words = add_one_words();
    constexpr uint32_t kOpIAdd = 128;
    bool mutated = false;
    for (size_t i = 5; i < words.size() && words[i] >> 16; i += words[i] >> 16) {
      if ((words[i] & 0xffff) == kOpIAdd && (words[i] >> 16) == 5) {
        words[i + 4] = words[3];
        mutated = true;
      }
    }
    if (!mutated) std::exit(6);
    make_module(device, words);
  });
}

TEST(VulkanShaders, PipelineWhoseLayoutLacksTheSet) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    compute_pipeline(device, make_module(device, add_one_words()), pipeline_layout(device, {}));
  });
}

TEST(VulkanShaders, PipelineWhoseSetLacksTheBinding) {
  expect_add_one_refused_with(
      {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}});
}

// add_one.comp's binding 0 is a uniform buffer; the layout says storage.
TEST(VulkanShaders, BindingOfTheWrongType) {
  expect_add_one_refused_with(
      {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}});
}

TEST(VulkanShaders, BindingForAnotherStage) {
  expect_add_one_refused_with(
      {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr}});
}

// sums.comp indexes three storage buffers; the layout has two.
TEST(VulkanShaders, TooFewDescriptors) {
  expect_sums_refused_with(2, {VK_SHADER_STAGE_COMPUTE_BIT, 0, 32});
}

// sums.comp reads bytes 16 to 20 of its push constants; the range ends at 16.
TEST(VulkanShaders, PushConstantsOutsideTheRange) {
  expect_sums_refused_with(3, {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16});
}

TEST(VulkanShaders, PushConstantsForAnotherStage) {
  expect_sums_refused_with(3, {VK_SHADER_STAGE_VERTEX_BIT, 0, 32});
}

TEST(VulkanShaders, EntryPointTheModuleLacks) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    compute_pipeline(device, make_module(device, add_one_words()),
                     pipeline_layout(device, {guesttest::add_one_set_layout(device)}), "mian");
  });
}

// spec_sized.comp's array is as long as its specialization constant 0: one
// buffer by default, four as this stage specializes it.
TEST(VulkanShaders, TooFewDescriptorsForASpecializedArray) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const std::vector<uint32_t> words(std::begin(spec_sized_comp), std::end(spec_sized_comp));
    const int32_t buffers = 4;
    const VkSpecializationMapEntry entry{0, 0, sizeof buffers};
    const VkSpecializationInfo spec{1, &entry, sizeof buffers, &buffers};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                  make_module(device, words), "main", &spec};
    info.layout = pipeline_layout(device, {sums_set(device, 2)});
    VkPipeline pipeline;
    vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  });
}

// The chained module is validated like a created one.
TEST(VulkanShaders, ChainedModuleWithAMutatedHeader) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    std::vector<uint32_t> words = add_one_words();
    words[3] = 0xffffffff;
    add_one_beside_chained(device, words,
                           pipeline_layout(device, {guesttest::add_one_set_layout(device)}));
  });
}

// A driver compiles the created module or the chained one: each must fit.
// The chained sums.comp fits this layout; the created add_one.comp does not.
TEST(VulkanShaders, ModuleThatDoesNotFitBesideAChainedOneThatDoes) {
  expect_refused([](VkInstance, VkPhysicalDevice, VkDevice device) {
    const std::vector<uint32_t> sums(std::begin(sums_comp), std::end(sums_comp));
    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 32};
    add_one_beside_chained(device, sums, pipeline_layout(device, {sums_set(device, 3)}, {push}));
  });
}

}  // namespace
