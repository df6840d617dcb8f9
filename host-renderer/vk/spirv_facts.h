// What the host knows of a guest's SPIR-V module: that SPIRV-Tools' validator
// accepts it for the device's environment, and, for each entry point, the
// descriptors and push-constant bytes it statically uses (Vulkan 1.3
// "Shader Resource Interface" and "Push Constant Interface"), which a
// pipeline's layout must provide before the driver compiles it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.h>

#include "wire/result.h"

namespace host::vk {

// The environment a device compiles SPIR-V for: its Vulkan version, and the
// block layouts its driver accepts beyond the standard ones.
struct SpirvTarget {
  spv_target_env env = SPV_ENV_VULKAN_1_1;
  bool scalar_block_layout = false;
  bool uniform_buffer_standard_layout = false;
  bool operator==(const SpirvTarget&) const = default;
};

// Descriptor types as bits (descriptor_bit), so that what a resource
// accepts is one mask.
uint32_t descriptor_bit(uint32_t vk_descriptor_type);

// One descriptor a shader uses. Its elements: `count` (the product of the
// array's constant lengths) times the specialization constant `spec_id`
// where one sizes the array (resolved with the stage's specialization info,
// else `spec_default`); a runtime array needs at least one.
struct UsedDescriptor {
  static constexpr uint32_t kNoSpecId = UINT32_MAX;
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t accepted = 0;  // descriptor_bit()s of the types that fit it
  uint32_t count = 1;
  uint32_t spec_id = kNoSpecId;
  uint32_t spec_default = 1;
  bool runtime_array = false;
};

// Bytes of the push-constant block an entry point reads: [offset, offset + size).
struct PushBytes {
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct EntryPoint {
  std::string name;
  uint32_t stage = 0;  // the VkShaderStageFlagBits of its execution model; 0 for none
  std::vector<UsedDescriptor> descriptors;
  std::vector<PushBytes> push_constants;
};

struct ModuleFacts {
  std::vector<EntryPoint> entry_points;
  const EntryPoint* find(const char* name, uint32_t stage) const;
};

// A context and options per environment, made once: creating them costs
// more than validating a small module.
class SpirvValidator {
 public:
  SpirvValidator();
  ~SpirvValidator();
  SpirvValidator(const SpirvValidator&) = delete;
  SpirvValidator& operator=(const SpirvValidator&) = delete;

  // Validates `code` for `target` and reads its entry points; an error says
  // why the validator refused it.
  wire::Result<std::shared_ptr<const ModuleFacts>> read(std::span<const uint32_t> code, const SpirvTarget& target);

 private:
  spv_const_context context_for(spv_target_env env);
  struct Context;
  std::vector<std::unique_ptr<Context>> contexts_;
};

}  // namespace host::vk
