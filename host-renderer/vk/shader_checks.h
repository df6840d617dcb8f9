// A guest's shader modules and the layouts its pipelines are made with: every
// module is validated before the driver sees it, and every stage of a
// pipeline is checked against the pipeline's layout before the driver
// compiles it (drivers index descriptor sets and push constants by what the
// shader says, without looking at the layout; Vulkan leaves a mismatch
// undefined).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include <vulkan/vulkan.h>

#include "vk/spirv_facts.h"
#include "wire/result.h"

namespace host::vk {

class ShaderChecks {
 public:
  // The device's environment, once known (the handler asks its driver).
  const SpirvTarget* target(uint64_t device) const;
  void note_target(uint64_t device, const SpirvTarget& target);

  // A module about to be created; what it uses is kept for the module that
  // note_module names next.
  wire::Status check_module(const SpirvTarget& target, std::span<const uint32_t> code);
  void note_module(uint64_t device, uint64_t module);
  void forget_module(uint64_t module);

  void note_set_layout(uint64_t device, uint64_t layout, const VkDescriptorSetLayoutCreateInfo& info);
  void forget_set_layout(uint64_t layout);
  void note_pipeline_layout(uint64_t device, uint64_t layout, const VkPipelineLayoutCreateInfo& info);
  void forget_pipeline_layout(uint64_t layout);
  void forget_device(uint64_t device);

  // A pipeline library made with `layout`, whose stages were checked
  // against it: its sets are kept for the pipelines that link it.
  void note_library(uint64_t pipeline, uint64_t layout);
  void forget_library(uint64_t pipeline);
  // A pipeline linking `library` with `layout`: each set of the library's
  // layout is the same in `layout`, binding for binding.
  wire::Status check_linked_layout(uint64_t layout, uint64_t library) const;

  // One stage of a pipeline made with `layout`.
  wire::Status check_stage(const SpirvTarget& target, uint64_t layout, const VkPipelineShaderStageCreateInfo& stage);

 private:
  struct Binding {
    uint64_t type;  // the VkDescriptorType, as the guest wrote it
    uint32_t count;
    uint64_t stages;
    bool operator==(const Binding&) const = default;
  };
  using SetLayout = std::unordered_map<uint32_t, Binding>;  // by binding number
  struct PipelineLayout {
    uint64_t device;
    // Copies, not names: a set layout may be destroyed while a pipeline
    // layout made with it is still used (Vulkan 1.3 "Object Lifetime").
    std::vector<std::shared_ptr<const SetLayout>> sets;
    std::vector<VkPushConstantRange> push_constants;
  };
  // A module accepted before, by its words and environment: a program that
  // makes the same module again is not validated again.
  struct Verdict {
    std::vector<uint32_t> code;
    SpirvTarget target;
    std::shared_ptr<const ModuleFacts> facts;
  };
  static constexpr size_t kVerdictWords = size_t{4} << 20;  // 16 MiB of code remembered at most

  wire::Result<std::shared_ptr<const ModuleFacts>> facts_of(const SpirvTarget& target, std::span<const uint32_t> code);
  wire::Result<std::vector<std::shared_ptr<const ModuleFacts>>> stage_code(
      const SpirvTarget& target, const VkPipelineShaderStageCreateInfo& stage);
  static wire::Status check_descriptor(const PipelineLayout& layout, const UsedDescriptor& used, uint64_t stage,
                                       const VkSpecializationInfo* spec);
  static wire::Status check_push_constants(const PipelineLayout& layout, const PushBytes& used, uint64_t stage);

  SpirvValidator validator_;
  std::unordered_map<uint64_t, SpirvTarget> targets_;  // by device
  std::shared_ptr<const ModuleFacts> pending_;          // of the vkCreateShaderModule being run
  std::unordered_map<uint64_t, std::pair<uint64_t, std::shared_ptr<const ModuleFacts>>> modules_;  // device, facts
  std::unordered_map<uint64_t, std::pair<uint64_t, std::shared_ptr<const SetLayout>>> set_layouts_;
  std::unordered_map<uint64_t, PipelineLayout> pipeline_layouts_;
  std::unordered_map<uint64_t, PipelineLayout> libraries_;  // by library pipeline: its layout as made
  std::unordered_multimap<size_t, Verdict> verdicts_;  // by a hash of the words
  size_t verdict_words_ = 0;
};

}  // namespace host::vk
