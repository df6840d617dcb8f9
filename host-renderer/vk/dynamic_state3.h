// VK_EXT_extended_dynamic_state3's commands, each allowed by a feature of
// its own (VkPhysicalDeviceExtendedDynamicState3FeaturesEXT): a driver
// without the feature records the command and has no way to run it.
#pragma once

#include <cstdint>

namespace host::vk {

// The bit of the feature that allows `opcode` among a device's enabled
// ones; -1 for a command of another extension.
int dynamic_state3_feature(uint32_t opcode);

inline bool is_dynamic_state3(uint32_t opcode) { return dynamic_state3_feature(opcode) >= 0; }

// The features a VkDeviceCreateInfo's chain enables, a bit each.
uint32_t dynamic_state3_features(const void* device_create_next);

}  // namespace host::vk
