// SPIR-V modules validated by SPIRV-Tools, then read for what their entry
// points use. The reader runs on validated modules only: every id it looks
// up is defined, every type well formed, and functions do not recurse
// (SPIR-V 2.16.1), so it walks them without guarding against cycles.
#include "vk/spirv_facts.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <vulkan/vulkan.h>

namespace host::vk {

using wire::Errc;
using wire::make_error;

namespace {

constexpr uint32_t kMagic = 0x07230203;

// Opcodes, decorations, storage classes and dimensions of the SPIR-V 1.6
// specification (section 3) that the reader looks at.
enum Op : uint16_t {
  kOpEntryPoint = 15,
  kOpTypeBool = 20,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeMatrix = 24,
  kOpTypeImage = 25,
  kOpTypeSampler = 26,
  kOpTypeSampledImage = 27,
  kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpConstant = 43,
  kOpSpecConstant = 50,
  kOpFunction = 54,
  kOpFunctionEnd = 56,
  kOpFunctionCall = 57,
  kOpVariable = 59,
  kOpAccessChain = 65,
  kOpInBoundsAccessChain = 66,
  kOpDecorate = 71,
  kOpMemberDecorate = 72,
  kOpGroupDecorate = 74,
  kOpGroupMemberDecorate = 75,
  kOpTypeAccelerationStructure = 5341,
};

enum Decoration : uint32_t {
  kSpecId = 1,
  kBlock = 2,
  kBufferBlock = 3,
  kRowMajor = 4,
  kArrayStride = 6,
  kMatrixStride = 7,
  kBinding = 33,
  kDescriptorSet = 34,
  kOffset = 35,
};

enum StorageClass : uint32_t {
  kUniformConstant = 0,
  kUniform = 2,
  kPushConstant = 9,
  kStorageBuffer = 12,
};

constexpr uint32_t kDimBuffer = 5;
constexpr uint32_t kDimSubpassData = 6;

// An access to the whole push-constant block rather than one member.
constexpr uint32_t kWholeBlock = UINT32_MAX;

// Deeper types than this are refused rather than measured (SPIRV-Tools'
// own limit on struct nesting is 255; push-constant blocks are shallow).
constexpr int kMaxTypeDepth = 64;

// The stage an execution model runs as (SPIR-V "Execution Model",
// Vulkan "Shader Stages"); 0 for models Vulkan has no stage for.
uint32_t stage_of(uint32_t model) {
  switch (model) {
    case 0: return VK_SHADER_STAGE_VERTEX_BIT;
    case 1: return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    case 2: return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    case 3: return VK_SHADER_STAGE_GEOMETRY_BIT;
    case 4: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case 5: return VK_SHADER_STAGE_COMPUTE_BIT;
    case 5267: case 5364: return VK_SHADER_STAGE_TASK_BIT_EXT;
    case 5268: case 5365: return VK_SHADER_STAGE_MESH_BIT_EXT;
    case 5313: return VK_SHADER_STAGE_RAYGEN_BIT_KHR;
    case 5314: return VK_SHADER_STAGE_INTERSECTION_BIT_KHR;
    case 5315: return VK_SHADER_STAGE_ANY_HIT_BIT_KHR;
    case 5316: return VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR;
    case 5317: return VK_SHADER_STAGE_MISS_BIT_KHR;
    case 5318: return VK_SHADER_STAGE_CALLABLE_BIT_KHR;
    default: return 0;
  }
}

uint64_t add_sat(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t mul_sat(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

bool is_id(spv_operand_type_t type) {
  return type == SPV_OPERAND_TYPE_ID || type == SPV_OPERAND_TYPE_SCOPE_ID ||
         type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID;
}

struct Decorations {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t array_stride = 0;
  uint32_t spec_id = UsedDescriptor::kNoSpecId;
  bool block = false;
  bool buffer_block = false;
};

struct MemberLayout {
  uint32_t offset = 0;
  uint32_t matrix_stride = 0;
  bool row_major = false;
};

// What one function does that an entry point calling it does too.
struct Function {
  std::unordered_set<uint32_t> globals;  // global variables it names
  std::unordered_set<uint32_t> callees;
  std::set<std::pair<uint32_t, uint32_t>> push_members;  // (variable, member or kWholeBlock)
};

struct Variable {
  uint32_t pointer_type;
  uint32_t storage;
};

class ModuleReader {
 public:
  static spv_result_t on_instruction(void* self, const spv_parsed_instruction_t* inst) {
    static_cast<ModuleReader*>(self)->note(*inst);
    return SPV_SUCCESS;
  }
  ModuleFacts facts() const;

 private:
  void note(const spv_parsed_instruction_t& inst);
  void note_decoration(const uint32_t* w, uint16_t n);
  void decorate(uint32_t target, uint32_t decoration, uint32_t value);
  void decorate_member(uint32_t target, uint32_t member, uint32_t decoration, uint32_t value);
  void note_in_function(const spv_parsed_instruction_t& inst);
  void note_entry_point(const spv_parsed_instruction_t& inst);
  EntryPoint entry_point(uint32_t model, uint32_t function, const std::string& name) const;
  std::unordered_set<uint32_t> reachable(uint32_t function) const;
  bool describe(uint32_t variable, const Variable& v, UsedDescriptor& out) const;
  uint32_t accepted_types(uint32_t type, uint32_t storage) const;
  void push_bytes(uint32_t variable, uint32_t member, std::vector<PushBytes>& out) const;
  uint64_t size_of(uint32_t type, const MemberLayout& layout, int depth) const;
  const std::vector<uint32_t>* def(uint32_t id) const;
  uint32_t word(uint32_t id, size_t i) const;
  const MemberLayout* member(uint32_t type, uint32_t index) const;

  std::unordered_map<uint32_t, std::vector<uint32_t>> defs_;  // types and constants, as written
  std::unordered_map<uint32_t, Decorations> decorations_;
  std::map<std::pair<uint32_t, uint32_t>, MemberLayout> members_;
  // Every OpDecorate by its target: a decoration group's are applied again
  // to the targets OpGroupDecorate names (SPIR-V 3.32.2).
  std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> written_;
  std::unordered_map<uint32_t, Variable> globals_;
  std::unordered_map<uint32_t, Function> functions_;
  Function* function_now_ = nullptr;
  struct Entry {
    uint32_t model;
    uint32_t function;
    std::string name;
  };
  std::vector<Entry> entries_;
};

void ModuleReader::note(const spv_parsed_instruction_t& inst) {
  const uint32_t* w = inst.words;
  switch (inst.opcode) {
    case kOpEntryPoint: return note_entry_point(inst);
    case kOpDecorate:
    case kOpMemberDecorate:
    case kOpGroupDecorate:
    case kOpGroupMemberDecorate: return note_decoration(w, inst.num_words);
    case kOpFunction:
      function_now_ = &functions_[inst.result_id];
      return;
    case kOpFunctionEnd:
      function_now_ = nullptr;
      return;
    default: break;
  }
  if (function_now_) return note_in_function(inst);
  if (inst.opcode == kOpVariable) {
    globals_[inst.result_id] = {w[1], w[3]};
    return;
  }
  // Types and constants, kept whole: an array's length, a struct's members.
  if (inst.result_id) defs_[inst.result_id].assign(w, w + inst.num_words);
}

void ModuleReader::note_decoration(const uint32_t* w, uint16_t n) {
  switch (w[0] & 0xffff) {
    case kOpDecorate:
      if (n < 3) return;
      written_[w[1]].emplace_back(w[2], n > 3 ? w[3] : 0);
      return decorate(w[1], w[2], n > 3 ? w[3] : 0);
    case kOpMemberDecorate:
      if (n < 4) return;
      return decorate_member(w[1], w[2], w[3], n > 4 ? w[4] : 0);
    case kOpGroupDecorate:
      for (uint16_t i = 2; i < n; ++i)
        for (const auto& [decoration, value] : written_[w[1]]) decorate(w[i], decoration, value);
      return;
    case kOpGroupMemberDecorate:
      for (uint16_t i = 2; i + 1 < n; i += 2)
        for (const auto& [decoration, value] : written_[w[1]]) decorate_member(w[i], w[i + 1], decoration, value);
      return;
    default:
      return;
  }
}

void ModuleReader::decorate(uint32_t target, uint32_t decoration, uint32_t value) {
  Decorations& d = decorations_[target];
  switch (decoration) {
    case kDescriptorSet: d.set = value; break;
    case kBinding: d.binding = value; break;
    case kArrayStride: d.array_stride = value; break;
    case kSpecId: d.spec_id = value; break;
    case kBlock: d.block = true; break;
    case kBufferBlock: d.buffer_block = true; break;
    default: break;
  }
}

void ModuleReader::decorate_member(uint32_t target, uint32_t member, uint32_t decoration, uint32_t value) {
  MemberLayout& m = members_[{target, member}];
  if (decoration == kOffset) m.offset = value;
  if (decoration == kMatrixStride) m.matrix_stride = value;
  if (decoration == kRowMajor) m.row_major = true;
}

// Every id operand that names a global variable is a static use of it
// (Vulkan "Static Use"); an access chain into the push-constant block uses
// only the member it starts with.
void ModuleReader::note_in_function(const spv_parsed_instruction_t& inst) {
  const uint32_t* w = inst.words;
  Function& f = *function_now_;
  if (inst.opcode == kOpFunctionCall && inst.num_words > 3) f.callees.insert(w[3]);
  size_t first = 0;
  if ((inst.opcode == kOpAccessChain || inst.opcode == kOpInBoundsAccessChain) && inst.num_words > 4) {
    auto base = globals_.find(w[3]);
    if (base != globals_.end() && base->second.storage == kPushConstant) {
      f.globals.insert(w[3]);
      f.push_members.emplace(w[3], word(w[4], 3));
      first = 4;  // the base is accounted for
    }
  }
  for (size_t i = 0; i < inst.num_operands; ++i) {
    const spv_parsed_operand_t& o = inst.operands[i];
    if (o.offset < first || o.num_words != 1 || !is_id(o.type)) continue;
    auto g = globals_.find(w[o.offset]);
    if (g == globals_.end()) continue;
    f.globals.insert(g->first);
    if (g->second.storage == kPushConstant) f.push_members.emplace(g->first, kWholeBlock);
  }
}

void ModuleReader::note_entry_point(const spv_parsed_instruction_t& inst) {
  if (inst.num_operands < 3) return;
  const spv_parsed_operand_t& name = inst.operands[2];
  const char* chars = reinterpret_cast<const char*>(inst.words + name.offset);
  entries_.push_back({inst.words[1], inst.words[2], std::string(chars, strnlen(chars, name.num_words * 4u))});
}

const std::vector<uint32_t>* ModuleReader::def(uint32_t id) const {
  auto it = defs_.find(id);
  return it == defs_.end() ? nullptr : &it->second;
}

// Word `i` of the instruction that defined `id`, or 0.
uint32_t ModuleReader::word(uint32_t id, size_t i) const {
  const auto* d = def(id);
  return d && d->size() > i ? (*d)[i] : 0;
}

const MemberLayout* ModuleReader::member(uint32_t type, uint32_t index) const {
  auto it = members_.find({type, index});
  return it == members_.end() ? nullptr : &it->second;
}

ModuleFacts ModuleReader::facts() const {
  ModuleFacts out;
  for (const Entry& e : entries_) out.entry_points.push_back(entry_point(e.model, e.function, e.name));
  return out;
}

std::unordered_set<uint32_t> ModuleReader::reachable(uint32_t function) const {
  std::unordered_set<uint32_t> seen{function};
  std::vector<uint32_t> todo{function};
  while (!todo.empty()) {
    auto it = functions_.find(todo.back());
    todo.pop_back();
    if (it == functions_.end()) continue;
    for (uint32_t callee : it->second.callees)
      if (seen.insert(callee).second) todo.push_back(callee);
  }
  return seen;
}

EntryPoint ModuleReader::entry_point(uint32_t model, uint32_t function, const std::string& name) const {
  EntryPoint e{name, stage_of(model), {}, {}};
  std::unordered_set<uint32_t> used;
  std::set<std::pair<uint32_t, uint32_t>> push_members;
  for (uint32_t f : reachable(function)) {
    auto it = functions_.find(f);
    if (it == functions_.end()) continue;
    used.insert(it->second.globals.begin(), it->second.globals.end());
    push_members.insert(it->second.push_members.begin(), it->second.push_members.end());
  }
  for (uint32_t id : used) {
    const Variable& v = globals_.at(id);
    UsedDescriptor d;
    if (describe(id, v, d)) e.descriptors.push_back(d);
  }
  for (const auto& [variable, member] : push_members) push_bytes(variable, member, e.push_constants);
  return e;
}

// A resource variable's binding, the descriptor types that fit it (Vulkan
// "Shader Resource and Descriptor Type Correspondence") and its array size.
bool ModuleReader::describe(uint32_t variable, const Variable& v, UsedDescriptor& out) const {
  if (v.storage != kUniformConstant && v.storage != kUniform && v.storage != kStorageBuffer) return false;
  auto d = decorations_.find(variable);
  if (d != decorations_.end()) {
    out.set = d->second.set;
    out.binding = d->second.binding;
  }
  uint32_t type = word(v.pointer_type, 3);
  out.count = 1;
  for (int depth = 0; depth < kMaxTypeDepth; ++depth) {
    const uint32_t op = word(type, 0) & 0xffff;
    if (op == kOpTypeRuntimeArray) {
      out.runtime_array = true;
    } else if (op == kOpTypeArray) {
      const uint32_t length = word(type, 3);
      const uint32_t value = word(length, 3);
      auto spec = decorations_.find(length);
      if ((word(length, 0) & 0xffff) == kOpSpecConstant && spec != decorations_.end() &&
          spec->second.spec_id != UsedDescriptor::kNoSpecId && out.spec_id == UsedDescriptor::kNoSpecId) {
        out.spec_id = spec->second.spec_id;
        out.spec_default = value;
      } else {
        out.count = static_cast<uint32_t>(std::min<uint64_t>(mul_sat(out.count, std::max(value, 1u)), UINT32_MAX));
      }
    } else {
      break;
    }
    type = word(type, 2);
  }
  out.accepted = accepted_types(type, v.storage);
  return true;
}

uint32_t ModuleReader::accepted_types(uint32_t type, uint32_t storage) const {
  const uint32_t op = word(type, 0) & 0xffff;
  auto bits = [](std::initializer_list<VkDescriptorType> types) {
    uint32_t mask = 0;
    for (VkDescriptorType t : types) mask |= descriptor_bit(t);
    return mask;
  };
  if (op == kOpTypeStruct) {
    auto d = decorations_.find(type);
    const bool buffer_block = d != decorations_.end() && d->second.buffer_block;
    if (storage == kStorageBuffer || buffer_block)
      return bits({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC});
    return bits({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                 VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK});
  }
  if (op == kOpTypeSampler) return bits({VK_DESCRIPTOR_TYPE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  if (op == kOpTypeAccelerationStructure)
    return bits({VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_NV});
  if (op == kOpTypeSampledImage) {
    // samplerBuffer is a sampled image of a buffer: a uniform texel buffer.
    if (word(word(type, 2), 3) == kDimBuffer) return bits({VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER});
    return bits({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  }
  if (op != kOpTypeImage) return 0;
  const uint32_t dim = word(type, 3);
  const uint32_t sampled = word(type, 7);  // 1: sampled, 2: storage, 0: known at run time
  if (dim == kDimSubpassData) return bits({VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT});
  uint32_t mask = 0;
  if (dim == kDimBuffer) {
    if (sampled != 2) mask |= bits({VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER});
    if (sampled != 1) mask |= bits({VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER});
    return mask;
  }
  if (sampled != 2) mask |= bits({VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  if (sampled != 1) mask |= bits({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE});
  return mask;
}

// The bytes a member of the push-constant block spans, or all of them.
void ModuleReader::push_bytes(uint32_t variable, uint32_t index, std::vector<PushBytes>& out) const {
  const uint32_t block = word(globals_.at(variable).pointer_type, 3);
  const auto* d = def(block);
  if (!d || ((*d)[0] & 0xffff) != kOpTypeStruct) {
    out.push_back({0, size_of(block, {}, 0)});
    return;
  }
  const uint32_t members = static_cast<uint32_t>(d->size() - 2);
  for (uint32_t m = 0; m < members; ++m) {
    if (index != kWholeBlock && index != m) continue;
    const MemberLayout* layout = member(block, m);
    const MemberLayout none;
    const MemberLayout& l = layout ? *layout : none;
    out.push_back({l.offset, size_of((*d)[2 + m], l, 0)});
  }
}

// The bytes a value of `type` spans under its explicit layout (Vulkan
// "Offset and Stride Assignment"): the last element's end, not the stride
// past it. Saturates, so that what cannot fit is refused.
uint64_t ModuleReader::size_of(uint32_t type, const MemberLayout& layout, int depth) const {
  const auto* d = def(type);
  if (!d || depth > kMaxTypeDepth) return UINT64_MAX;
  const std::vector<uint32_t>& w = *d;
  switch (w[0] & 0xffff) {
    case kOpTypeBool: return 4;
    case kOpTypeInt:
    case kOpTypeFloat: return w.size() > 2 ? w[2] / 8 : UINT64_MAX;
    case kOpTypeVector: return mul_sat(size_of(w[2], layout, depth + 1), w[3]);
    case kOpTypeMatrix: {
      // Columns of `rows` components; a row-major matrix is stored by rows.
      const uint64_t scalar = size_of(word(w[2], 2), layout, depth + 1);
      const uint64_t rows = std::max(word(w[2], 3), 1u);
      const uint64_t columns = std::max(w[3], 1u);
      const uint64_t lines = layout.row_major ? rows : columns;
      const uint64_t line = mul_sat(scalar, layout.row_major ? columns : rows);
      const uint64_t stride = layout.matrix_stride ? layout.matrix_stride : line;
      return add_sat(mul_sat(stride, lines - 1), line);
    }
    case kOpTypeArray:
    case kOpTypeRuntimeArray: {
      const uint64_t element = size_of(w[2], layout, depth + 1);
      const uint64_t length = (w[0] & 0xffff) == kOpTypeArray ? std::max(word(w[3], 3), 1u) : 1;
      auto dec = decorations_.find(type);
      const uint64_t stride = dec != decorations_.end() && dec->second.array_stride ? dec->second.array_stride : element;
      return add_sat(mul_sat(stride, length - 1), element);
    }
    case kOpTypeStruct: {
      uint64_t end = 0;
      for (uint32_t m = 0; m + 2 < w.size(); ++m) {
        const MemberLayout* l = member(type, m);
        const MemberLayout none;
        end = std::max(end, add_sat(l ? l->offset : 0, size_of(w[2 + m], l ? *l : none, depth + 1)));
      }
      return end;
    }
    case kOpTypePointer: return 8;  // a physical storage buffer address
    default: return UINT64_MAX;
  }
}

}  // namespace

uint32_t descriptor_bit(uint32_t type) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: return 1u << 11;
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR: return 1u << 12;
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_NV: return 1u << 13;
    default: return type <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT ? 1u << type : 0;
  }
}

const EntryPoint* ModuleFacts::find(const char* name, uint32_t stage) const {
  for (const EntryPoint& e : entry_points)
    if (e.stage == stage && e.name == name) return &e;
  return nullptr;
}

struct SpirvValidator::Context {
  spv_target_env env;
  spv_context context;
};

SpirvValidator::SpirvValidator() = default;

SpirvValidator::~SpirvValidator() {
  for (auto& c : contexts_) spvContextDestroy(c->context);
}

spv_const_context SpirvValidator::context_for(spv_target_env env) {
  for (auto& c : contexts_)
    if (c->env == env) return c->context;
  contexts_.push_back(std::make_unique<Context>(Context{env, spvContextCreate(env)}));
  return contexts_.back()->context;
}

wire::Result<std::shared_ptr<const ModuleFacts>> SpirvValidator::read(std::span<const uint32_t> code,
                                                                       const SpirvTarget& target) {
  // Drivers read the header in the host's byte order (Mesa's spirv_to_nir
  // takes nothing else), though the validator would accept either.
  if (code.size() < 5 || code[0] != kMagic) return make_error(Errc::kBadValue, "a shader module that is not SPIR-V");
  spv_const_context context = context_for(target.env);
  spv_validator_options options = spvValidatorOptionsCreate();
  spvValidatorOptionsSetScalarBlockLayout(options, target.scalar_block_layout);
  spvValidatorOptionsSetUniformBufferStandardLayout(options, target.uniform_buffer_standard_layout);
  spvValidatorOptionsSetFriendlyNames(options, false);
  spv_const_binary_t binary{code.data(), code.size()};
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t valid = spvValidateWithOptions(context, options, &binary, &diagnostic);
  spvValidatorOptionsDestroy(options);
  std::string why = diagnostic && diagnostic->error ? diagnostic->error : "";
  spvDiagnosticDestroy(diagnostic);
  if (valid != SPV_SUCCESS)
    return make_error(Errc::kBadValue, "a shader module the SPIR-V validator refuses: " + why.substr(0, 240));
  ModuleReader reader;
  if (spvBinaryParse(context, &reader, code.data(), code.size(), nullptr, &ModuleReader::on_instruction, nullptr) !=
      SPV_SUCCESS)
    return make_error(Errc::kBadValue, "a shader module the host cannot read");
  return std::make_shared<const ModuleFacts>(reader.facts());
}

}  // namespace host::vk
