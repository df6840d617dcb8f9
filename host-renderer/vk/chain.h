// A structure in a decoded pNext chain (the codec checked every sType in it).
#pragma once

#include <vulkan/vulkan.h>

namespace host::vk {

// The first structure of `type` in the chain that starts at `next`, or null.
inline const VkBaseInStructure* find_in_chain(const void* next, VkStructureType type) {
  for (auto* p = static_cast<const VkBaseInStructure*>(next); p; p = p->pNext)
    if (p->sType == type) return p;
  return nullptr;
}

// Clears in a features chain what the host refuses to be used
// (device_identity.cpp).
void hide_refused_features(const void* chain);

}  // namespace host::vk
