// Workgroup counts a guest's command buffer writes into its own buffers
// (vkCmdFillBuffer, a shader's stores) are beyond the checks' reach, and
// drivers run whatever vkCmdDispatchIndirect reads: a few bytes would buy
// hours of the device. So the counts are clamped on the device as the
// dispatch comes to them, the way browsers' WebGPU validates indirect
// records: before each indirect dispatch the host records a copy of the
// guest's record into a slot of a buffer of its own and a one-invocation
// dispatch (shaders/clamp_dispatch.comp) that writes the counts back,
// zeroed where over the device's or the host's limits; the guest's
// dispatch then reads the slot. Slots go round a ring; two uses of one slot
// on one queue are ordered by the barriers recorded with them.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "vk/host_calls.h"

namespace host::vk {

class DispatchClamps {
 public:
  explicit DispatchClamps(const HostDispatch& dispatch) : d_(dispatch) {}

  // Where a clamped dispatch reads its counts.
  struct Slot {
    VkBuffer buffer;
    VkDeviceSize offset;
  };
  // Records the clamp of the record at `buffer` + `offset` into `cb`, the
  // limits being {most per side x, y, z; most in all}; nothing when the
  // device's clamp could not be made (out of memory). Leaves `cb`'s compute
  // pipeline, sets and push constants for the caller to bind again.
  std::optional<Slot> clamp(VkDevice device, VkPhysicalDevice gpu, VkCommandBuffer cb, VkBuffer buffer,
                            VkDeviceSize offset, const std::array<uint32_t, 4>& limits);
  // Before the device ends.
  void close(VkDevice device);

 private:
  struct PerDevice {
    VkBuffer slots = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    uint32_t next = 0;
  };
  bool make(VkDevice device, VkPhysicalDevice gpu, PerDevice& p) const;
  bool make_slots(VkDevice device, VkPhysicalDevice gpu, PerDevice& p) const;
  bool make_pipeline(VkDevice device, PerDevice& p) const;
  void destroy(VkDevice device, PerDevice& p) const;

  const HostDispatch& d_;
  std::unordered_map<VkDevice, PerDevice> devices_;
};

}  // namespace host::vk
