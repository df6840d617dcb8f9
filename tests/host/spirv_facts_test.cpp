// What the host reads of SPIR-V modules (host-renderer/vk/spirv_facts.h):
// the descriptors and push-constant bytes each entry point statically uses,
// read from modules glslang compiled at build time, and the validator's
// refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include <vulkan/vulkan.h>

#include "add_one_comp.h"
#include "facts_frag.h"
#include "sums_comp.h"
#include "vk/spirv_facts.h"

namespace {

using namespace host::vk;  // the facts under test

template <size_t N>
std::vector<uint32_t> words_of(const uint32_t (&code)[N]) {
  return {std::begin(code), std::end(code)};
}

std::shared_ptr<const ModuleFacts> read(const std::vector<uint32_t>& code) {
  SpirvValidator validator;
  auto facts = validator.read(code, SpirvTarget{});
  EXPECT_TRUE(facts) << facts.error().detail;
  return facts ? *facts : nullptr;
}

const UsedDescriptor* find(const EntryPoint& e, uint32_t set, uint32_t binding) {
  auto it = std::find_if(e.descriptors.begin(), e.descriptors.end(),
                         [&](const UsedDescriptor& d) { return d.set == set && d.binding == binding; });
  return it == e.descriptors.end() ? nullptr : &*it;
}

bool accepts(const UsedDescriptor& d, VkDescriptorType type) { return d.accepted & descriptor_bit(type); }

// What the host reads of a module: its facts, and its entry point "main" of
// one stage, which the facts own.
struct Main {
  std::shared_ptr<const ModuleFacts> facts;
  const EntryPoint* entry = nullptr;
};

Main main_of(const std::vector<uint32_t>& code, VkShaderStageFlagBits stage) {
  Main m{read(code)};
  if (m.facts) m.entry = m.facts->find("main", stage);
  return m;
}

TEST(SpirvFacts, UniformAndStorageBuffersOfAComputeShader) {
  const Main m = main_of(words_of(add_one_comp), VK_SHADER_STAGE_COMPUTE_BIT);
  ASSERT_TRUE(m.facts && m.entry);
  const EntryPoint* main = m.entry;
  EXPECT_EQ(m.facts->find("main", VK_SHADER_STAGE_VERTEX_BIT), nullptr);
  ASSERT_EQ(main->descriptors.size(), 2u);
  const UsedDescriptor* in = find(*main, 0, 0);
  const UsedDescriptor* out = find(*main, 0, 1);
  ASSERT_TRUE(in && out);
  EXPECT_TRUE(accepts(*in, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER));
  EXPECT_FALSE(accepts(*in, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER));
  // A BufferBlock in the Uniform storage class is a storage buffer.
  EXPECT_TRUE(accepts(*out, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC));
  EXPECT_FALSE(accepts(*out, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER));
  EXPECT_TRUE(main->push_constants.empty());
}

TEST(SpirvFacts, DescriptorArrayAndOnePushConstantMember) {
  const Main m = main_of(words_of(sums_comp), VK_SHADER_STAGE_COMPUTE_BIT);
  ASSERT_TRUE(m.facts && m.entry);
  const EntryPoint* main = m.entry;
  ASSERT_EQ(main->descriptors.size(), 1u);
  EXPECT_EQ(main->descriptors[0].count, 3u);
  EXPECT_FALSE(main->descriptors[0].runtime_array);
  // The block's first member (bytes 0 to 16) is never read.
  ASSERT_EQ(main->push_constants.size(), 1u);
  EXPECT_EQ(main->push_constants[0].offset, 16u);
  EXPECT_EQ(main->push_constants[0].size, 4u);
}

TEST(SpirvFacts, WhatAFragmentShaderUsesAndOnlyThat) {
  const Main m = main_of(words_of(facts_frag), VK_SHADER_STAGE_FRAGMENT_BIT);
  ASSERT_TRUE(m.facts && m.entry);
  const EntryPoint* main = m.entry;
  EXPECT_EQ(main->descriptors.size(), 4u);
  EXPECT_EQ(find(*main, 0, 1), nullptr) << "declared, never used";
  const UsedDescriptor* used = find(*main, 0, 0);
  ASSERT_NE(used, nullptr) << "used through a function the entry point calls";
  EXPECT_TRUE(accepts(*used, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK));
  const UsedDescriptor* textures = find(*main, 1, 2);
  ASSERT_NE(textures, nullptr);
  EXPECT_TRUE(accepts(*textures, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER));
  EXPECT_FALSE(accepts(*textures, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE));
  EXPECT_EQ(textures->spec_id, 3u);
  EXPECT_EQ(textures->spec_default, 2u);
  const UsedDescriptor* texels = find(*main, 2, 0);
  ASSERT_NE(texels, nullptr);
  EXPECT_EQ(texels->accepted, descriptor_bit(VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER));
  const UsedDescriptor* picture = find(*main, 2, 1);
  ASSERT_NE(picture, nullptr);
  EXPECT_EQ(picture->accepted, descriptor_bit(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE));
  // A column-major mat3 with a stride of 16 spans 44 bytes; `skipped` is not read.
  ASSERT_EQ(main->push_constants.size(), 2u);
  std::vector<std::pair<uint64_t, uint64_t>> bytes;
  for (const auto& p : main->push_constants) bytes.emplace_back(p.offset, p.size);
  std::sort(bytes.begin(), bytes.end());
  EXPECT_EQ(bytes[0], std::make_pair(uint64_t{0}, uint64_t{44}));
  EXPECT_EQ(bytes[1], std::make_pair(uint64_t{64}, uint64_t{4}));
}

// Decorations given through a decoration group (SPIR-V 3.32.2), as older
// compilers wrote them, reach the variable.
TEST(SpirvFacts, DecorationGroups) {
  const char* text = R"(
    OpCapability Shader
    OpMemoryModel Logical GLSL450
    OpEntryPoint GLCompute %main "main"
    OpExecutionMode %main LocalSize 1 1 1
    OpDecorate %group DescriptorSet 2
    %group = OpDecorationGroup
    OpGroupDecorate %group %buffer
    OpDecorate %buffer Binding 5
    OpDecorate %Block Block
    OpMemberDecorate %Block 0 Offset 0
    %void = OpTypeVoid
    %fn = OpTypeFunction %void
    %uint = OpTypeInt 32 0
    %int = OpTypeInt 32 1
    %zero = OpConstant %int 0
    %Block = OpTypeStruct %uint
    %pointer = OpTypePointer Uniform %Block
    %member = OpTypePointer Uniform %uint
    %buffer = OpVariable %pointer Uniform
    %main = OpFunction %void None %fn
    %start = OpLabel
    %at = OpAccessChain %member %buffer %zero
    %value = OpLoad %uint %at
    OpReturn
    OpFunctionEnd
  )";
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_1);
  spv_binary binary = nullptr;
  ASSERT_EQ(spvTextToBinary(context, text, std::strlen(text), &binary, nullptr), SPV_SUCCESS);
  std::vector<uint32_t> words(binary->code, binary->code + binary->wordCount);
  spvBinaryDestroy(binary);
  spvContextDestroy(context);
  const Main m = main_of(words, VK_SHADER_STAGE_COMPUTE_BIT);
  ASSERT_TRUE(m.facts && m.entry);
  const EntryPoint* main = m.entry;
  ASSERT_EQ(main->descriptors.size(), 1u);
  EXPECT_EQ(main->descriptors[0].set, 2u);
  EXPECT_EQ(main->descriptors[0].binding, 5u);
  EXPECT_TRUE(accepts(main->descriptors[0], VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER));
}

TEST(SpirvFacts, ValidatorRefusesBrokenModules) {
  SpirvValidator validator;
  std::vector<uint32_t> bound = words_of(add_one_comp);
  bound[3] = 0xffffffff;
  EXPECT_FALSE(validator.read(bound, SpirvTarget{}));
  std::vector<uint32_t> swapped = words_of(add_one_comp);
  swapped[0] = 0x03022307;
  EXPECT_FALSE(validator.read(swapped, SpirvTarget{}));
  std::vector<uint32_t> cut = words_of(add_one_comp);
  cut.resize(cut.size() - 3);
  EXPECT_FALSE(validator.read(cut, SpirvTarget{}));
  EXPECT_FALSE(validator.read({}, SpirvTarget{}));
  EXPECT_TRUE(validator.read(words_of(add_one_comp), SpirvTarget{SPV_ENV_VULKAN_1_3, true, true}));
}

}  // namespace
