// The persistent pipeline cache of each guest device (shaders-cache/): the
// host makes a VkPipelineCache of its own for every device a guest creates,
// seeded from the cache entry of the device's driver (pipeline_cache_key.h),
// and builds the guest's pipelines through it wherever the guest passed no
// cache of its own. When the device ends, what the cache then holds (the
// seed and every pipeline made since) goes back to the supervisor to keep.
// Data whose header does not name the device is a miss: the driver is given
// an empty cache instead.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/stats.h"
#include "shaders_cache/pipeline_cache_key.h"
#include "vk/host_calls.h"

namespace host {
class ProgramCacheClient;
}

namespace host::vk {

class PipelineCaches {
 public:
  PipelineCaches(const HostDispatch& dispatch, Counters& counters) : dispatch_(dispatch), counters_(counters) {}

  // `client` null (the default): the cache is off and devices get none.
  void set_client(ProgramCacheClient* client) { client_ = client; }

  // A new device of `gpu`: its cache, seeded when the store has data for it.
  void open(VkDevice device, VkPhysicalDevice gpu);
  // vkCreateGraphicsPipelines and vkCreateComputePipelines without a cache
  // of the guest's get the device's.
  void supply(uint32_t opcode, void* args) const;
  // Before the device ends: its cache's data stored when it changed, and
  // the cache destroyed.
  void close(VkDevice device);

 private:
  struct Kept {
    VkPipelineCache cache = VK_NULL_HANDLE;
    std::string key;
    std::vector<std::byte> seed;  // what the cache started from
  };
  std::vector<std::byte> seed_for(const shaders_cache::VulkanDevice& identity, const std::string& key);
  std::vector<std::byte> data_of(VkDevice device, VkPipelineCache cache) const;

  const HostDispatch& dispatch_;
  Counters& counters_;
  ProgramCacheClient* client_ = nullptr;
  std::unordered_map<VkDevice, Kept> kept_;
};

}  // namespace host::vk
