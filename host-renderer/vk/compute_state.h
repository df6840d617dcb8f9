// What a command buffer's recording bound for compute: the pipeline, the
// descriptor sets, pushed descriptors and push constants, kept so that the
// host can bind them again after a dispatch of its own recorded in between
// (dispatch_clamps.h), whose set disturbs the program's. Binds and pushes
// are kept in order, each dropped once a later one covers everything it
// set, so what is kept stays small.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "vk/host_calls.h"

namespace host::vk {

class ComputeState {
 public:
  // A command recorded into the buffer, its handles the driver's.
  void note(uint32_t opcode, const void* args);
  // Records into `cb` what the guest had bound, as it had bound it.
  void bind_again(const HostDispatch& d, VkCommandBuffer cb) const;

 private:
  struct SetBind {
    VkPipelineLayout layout;
    uint32_t first;
    std::vector<VkDescriptorSet> sets;
    std::vector<uint32_t> dynamic_offsets;
  };
  // One write of a vkCmdPushDescriptorSetKHR, its arrays its own.
  struct PushedWrite {
    VkWriteDescriptorSet write;
    std::vector<VkDescriptorImageInfo> images;
    std::vector<VkDescriptorBufferInfo> buffers;
    std::vector<VkBufferView> views;
  };
  struct PushedSet {
    VkPipelineLayout layout;
    uint32_t set;
    std::vector<PushedWrite> writes;
  };
  struct Push {
    VkPipelineLayout layout;
    VkShaderStageFlags stages;
    uint32_t offset;
    std::vector<std::byte> bytes;
  };
  void note_pushed_set(const void* args);
  static void push_again(const HostDispatch& d, VkCommandBuffer cb, const PushedSet& p);
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  std::vector<std::variant<SetBind, PushedSet>> sets_;  // in the order recorded
  std::vector<Push> pushes_;
};

}  // namespace host::vk
