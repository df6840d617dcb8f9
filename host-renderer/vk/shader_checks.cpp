#include "vk/shader_checks.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

#include "vk/chain.h"
#include "vk/handle_table.h"
#include "wire/vk_codec.h"

namespace host::vk {

using wire::Errc;
using wire::make_error;
using wire::vk::as_number;

namespace {

std::string stage_name(uint64_t stage) {
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return "vertex";
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return "tessellation control";
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return "tessellation evaluation";
    case VK_SHADER_STAGE_GEOMETRY_BIT: return "geometry";
    case VK_SHADER_STAGE_FRAGMENT_BIT: return "fragment";
    case VK_SHADER_STAGE_COMPUTE_BIT: return "compute";
    default: return "stage " + std::to_string(stage);
  }
}

std::string where(const UsedDescriptor& used) {
  return "set " + std::to_string(used.set) + " binding " + std::to_string(used.binding);
}

// The value a specialization constant takes in this stage: the stage's, or
// the module's default (Vulkan 1.3 "Specialization Constants"). The codec
// has checked that each entry lies within pData (vk_struct_sizes.cpp).
uint64_t specialized(const VkSpecializationInfo* spec, uint32_t id, uint32_t fallback) {
  if (!spec) return fallback;
  for (uint32_t i = 0; i < spec->mapEntryCount; ++i) {
    const VkSpecializationMapEntry& e = spec->pMapEntries[i];
    if (e.constantID != id) continue;
    uint32_t value = 0;
    std::memcpy(&value, static_cast<const std::byte*>(spec->pData) + e.offset, std::min<size_t>(e.size, 4));
    return value;
  }
  return fallback;
}

}  // namespace

const SpirvTarget* ShaderChecks::target(uint64_t device) const {
  auto it = targets_.find(device);
  return it == targets_.end() ? nullptr : &it->second;
}

void ShaderChecks::note_target(uint64_t device, const SpirvTarget& target) { targets_[device] = target; }

wire::Status ShaderChecks::check_module(const SpirvTarget& target, std::span<const uint32_t> code) {
  auto facts = facts_of(target, code);
  if (!facts) return facts.error();
  pending_ = std::move(*facts);
  return {};
}

void ShaderChecks::note_module(uint64_t device, uint64_t module) {
  if (module && pending_) modules_[module] = {device, std::move(pending_)};
  pending_.reset();
}

void ShaderChecks::forget_module(uint64_t module) { modules_.erase(module); }

void ShaderChecks::note_set_layout(uint64_t device, uint64_t layout, const VkDescriptorSetLayoutCreateInfo& info) {
  auto set = std::make_shared<SetLayout>();
  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& b = info.pBindings[i];
    (*set)[b.binding] = {as_number(b.descriptorType), b.descriptorCount, as_number(b.stageFlags)};
  }
  set_layouts_[layout] = {device, std::move(set)};
}

void ShaderChecks::forget_set_layout(uint64_t layout) { set_layouts_.erase(layout); }

void ShaderChecks::note_pipeline_layout(uint64_t device, uint64_t layout, const VkPipelineLayoutCreateInfo& info) {
  PipelineLayout p{device, {}, {}};
  for (uint32_t i = 0; i < info.setLayoutCount; ++i) {
    auto it = set_layouts_.find(raw_handle(info.pSetLayouts[i]));
    p.sets.push_back(it == set_layouts_.end() ? nullptr : it->second.second);
  }
  p.push_constants.assign(info.pPushConstantRanges, info.pPushConstantRanges + info.pushConstantRangeCount);
  pipeline_layouts_[layout] = std::move(p);
}

void ShaderChecks::forget_pipeline_layout(uint64_t layout) { pipeline_layouts_.erase(layout); }

void ShaderChecks::note_library(uint64_t pipeline, uint64_t layout) {
  auto it = pipeline_layouts_.find(layout);
  if (it != pipeline_layouts_.end()) libraries_[pipeline] = it->second;
}

void ShaderChecks::forget_library(uint64_t pipeline) { libraries_.erase(pipeline); }

wire::Status ShaderChecks::check_linked_layout(uint64_t layout_handle, uint64_t library) const {
  auto layout = pipeline_layouts_.find(layout_handle);
  auto made = libraries_.find(library);
  if (layout == pipeline_layouts_.end() || made == libraries_.end())
    return make_error(Errc::kBadValue, "a library linked with a layout the host does not know");
  const auto& sets = layout->second.sets;
  for (size_t i = 0; i < made->second.sets.size(); ++i) {
    const auto& used = made->second.sets[i];
    if (!used || used->empty()) continue;
    if (i >= sets.size() || !sets[i] || *sets[i] != *used)
      return make_error(Errc::kBadValue, "a library linked with a layout whose set " + std::to_string(i) +
                                             " is not the one its shaders were made with");
  }
  return {};
}

void ShaderChecks::forget_device(uint64_t device) {
  auto of_device = [device](const auto& entry) { return entry.second.first == device; };
  std::erase_if(modules_, of_device);
  std::erase_if(set_layouts_, of_device);
  std::erase_if(pipeline_layouts_, [device](const auto& entry) { return entry.second.device == device; });
  std::erase_if(libraries_, [device](const auto& entry) { return entry.second.device == device; });
  targets_.erase(device);
}

// Validated once per content and environment: the words are compared, not
// only hashed, so that no module can pass for another one.
wire::Result<std::shared_ptr<const ModuleFacts>> ShaderChecks::facts_of(const SpirvTarget& target,
                                                                        std::span<const uint32_t> code) {
  const std::string_view bytes(reinterpret_cast<const char*>(code.data()), code.size_bytes());
  const size_t hash = std::hash<std::string_view>{}(bytes);
  auto [first, last] = verdicts_.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (it->second.target == target && std::ranges::equal(it->second.code, code)) return it->second.facts;
  auto facts = validator_.read(code, target);
  if (!facts) return facts.error();
  if (code.size() > kVerdictWords) return facts;
  if (verdict_words_ + code.size() > kVerdictWords) {
    verdicts_.clear();
    verdict_words_ = 0;
  }
  verdicts_.emplace(hash, Verdict{{code.begin(), code.end()}, target, *facts});
  verdict_words_ += code.size();
  return facts;
}

// The stage's code: its module's, and a module's create info chained to the
// stage (VK_KHR_maintenance5), validated like any other. A driver compiles
// one of the two; each must fit the layout.
wire::Result<std::vector<std::shared_ptr<const ModuleFacts>>> ShaderChecks::stage_code(
    const SpirvTarget& target, const VkPipelineShaderStageCreateInfo& stage) {
  std::vector<std::shared_ptr<const ModuleFacts>> code;
  if (auto* chained = reinterpret_cast<const VkShaderModuleCreateInfo*>(
          find_in_chain(stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO))) {
    auto facts = facts_of(target, {chained->pCode, chained->codeSize / 4});
    if (!facts) return facts.error();
    code.push_back(std::move(*facts));
  }
  if (stage.module || code.empty()) {
    auto it = modules_.find(raw_handle(stage.module));
    if (it == modules_.end())
      return make_error(Errc::kBadValue, "a pipeline stage without a shader module the host knows");
    code.push_back(it->second.second);
  }
  return code;
}

wire::Status ShaderChecks::check_stage(const SpirvTarget& target, uint64_t layout_handle,
                                       const VkPipelineShaderStageCreateInfo& stage) {
  auto layout = pipeline_layouts_.find(layout_handle);
  if (layout == pipeline_layouts_.end())
    return make_error(Errc::kBadValue, "a pipeline with a layout the host does not know");
  auto code = stage_code(target, stage);
  if (!code) return code.error();
  const uint64_t bit = as_number(stage.stage);
  for (const auto& facts : *code) {
    const EntryPoint* entry = facts->find(stage.pName, static_cast<uint32_t>(bit));
    if (!entry)
      return make_error(Errc::kBadValue, "a " + stage_name(bit) + " stage whose module has no entry point \"" +
                                             std::string(stage.pName).substr(0, 64) + "\" for it");
    for (const UsedDescriptor& used : entry->descriptors)
      WIRE_TRY(check_descriptor(layout->second, used, bit, stage.pSpecializationInfo));
    for (const PushBytes& used : entry->push_constants) WIRE_TRY(check_push_constants(layout->second, used, bit));
  }
  return {};
}

// Vulkan 1.3 "Shader Resource Interface": a descriptor a stage statically
// uses has a binding in the layout's set, of a type that corresponds to the
// variable, with as many descriptors as the variable's array and the stage
// among the binding's stages.
wire::Status ShaderChecks::check_descriptor(const PipelineLayout& layout, const UsedDescriptor& used,
                                            uint64_t stage, const VkSpecializationInfo* spec) {
  const std::string in = " in the " + stage_name(stage) + " stage";
  if (used.set >= layout.sets.size() || !layout.sets[used.set])
    return make_error(Errc::kBadValue, "a pipeline layout without the set of " + where(used) + in);
  const SetLayout& set = *layout.sets[used.set];
  auto b = set.find(used.binding);
  if (b == set.end() || b->second.count == 0)
    return make_error(Errc::kBadValue, "a pipeline layout without " + where(used) + in);
  const Binding& binding = b->second;
  if (binding.type > UINT32_MAX || !(descriptor_bit(static_cast<uint32_t>(binding.type)) & used.accepted))
    return make_error(Errc::kBadValue, "descriptor type " + std::to_string(binding.type) + " at " + where(used) +
                                           " does not fit the shader's variable" + in);
  uint64_t needed = used.count;
  if (used.spec_id != UsedDescriptor::kNoSpecId) needed *= specialized(spec, used.spec_id, used.spec_default);
  if (used.runtime_array) needed = std::max<uint64_t>(needed, 1);
  if (binding.count < needed)
    return make_error(Errc::kBadValue, where(used) + " has " + std::to_string(binding.count) +
                                           " descriptors, the shader uses " + std::to_string(needed) + in);
  if (!(binding.stages & stage))
    return make_error(Errc::kBadValue, where(used) + " is not for the " + stage_name(stage) + " stage that uses it");
  return {};
}

// Vulkan 1.3 "Push Constant Interface": every member a stage uses lies in
// push-constant ranges of the layout for that stage.
wire::Status ShaderChecks::check_push_constants(const PipelineLayout& layout, const PushBytes& used, uint64_t stage) {
  if (used.size == 0) return {};
  std::vector<VkPushConstantRange> ranges;
  for (const VkPushConstantRange& r : layout.push_constants)
    if (as_number(r.stageFlags) & stage) ranges.push_back(r);
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  uint64_t covered = used.offset;  // covered from used.offset up to here
  for (const VkPushConstantRange& r : ranges) {
    if (r.offset > covered) break;
    covered = std::max<uint64_t>(covered, uint64_t{r.offset} + r.size);
  }
  if (used.size > UINT32_MAX || covered < used.offset + used.size)
    return make_error(Errc::kBadValue, "push constants at bytes " + std::to_string(used.offset) + " to " +
                                           (used.size > UINT32_MAX ? std::string("beyond")
                                                                   : std::to_string(used.offset + used.size)) +
                                           " in the " + stage_name(stage) +
                                           " stage, outside the layout's ranges for it");
  return {};
}

}  // namespace host::vk
