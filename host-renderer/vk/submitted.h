// The command buffers of a vkQueueSubmit's or vkQueueSubmit2's submissions.
#pragma once

#include <cstdint>
#include <type_traits>

#include <vulkan/vulkan.h>

namespace host::vk {

template <typename Submit, typename Each>
void each_submitted_buffer(const Submit* submits, uint32_t count, Each each) {
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<Submit, VkSubmitInfo>) {
      for (uint32_t j = 0; j < submits[i].commandBufferCount; ++j) each(submits[i].pCommandBuffers[j]);
    } else {
      for (uint32_t j = 0; j < submits[i].commandBufferInfoCount; ++j)
        each(submits[i].pCommandBufferInfos[j].commandBuffer);
    }
  }
}

}  // namespace host::vk
