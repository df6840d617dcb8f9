// Sizes a driver reads that a structure's own counts do not bound: checked
// in every decoded structure, after its counts (vk_codec.cpp). Each is a
// valid-usage rule whose breach would have the driver read past what was
// sent, into the decoding side's memory.
#include <string>

#include "wire/vk_codec.h"

namespace wire::vk {

namespace {

// Specialization constants are read at each entry's offset and size in pData.
Status check_specialization(const VkSpecializationInfo& s) {
  for (uint32_t i = 0; i < s.mapEntryCount; ++i) {
    const VkSpecializationMapEntry& e = s.pMapEntries[i];
    if (e.offset > s.dataSize || e.size > s.dataSize - e.offset)
      return make_error(Errc::kBadLength, "VkSpecializationInfo: entry " + std::to_string(i) + " past its " +
                                              std::to_string(s.dataSize) + " bytes");
  }
  return {};
}

// SPIR-V is read as codeSize bytes; what travels is codeSize / 4 words.
Status check_shader_code(const VkShaderModuleCreateInfo& s) {
  if (s.codeSize % 4) return make_error(Errc::kBadLength, "VkShaderModuleCreateInfo: codeSize not a multiple of 4");
  return {};
}

}  // namespace

Status check_struct_sizes(const StructDesc& desc, const void* s) {
  static const StructDesc* const specialization = plain_struct("VkSpecializationInfo");
  static const StructDesc* const shader = struct_by_stype(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  if (&desc == specialization) return check_specialization(*static_cast<const VkSpecializationInfo*>(s));
  if (&desc == shader) return check_shader_code(*static_cast<const VkShaderModuleCreateInfo*>(s));
  return {};
}

}  // namespace wire::vk
