#include "vk/pipeline_caches.h"

#include <algorithm>

#include "program_cache_channel.h"
#include "shaders_cache/entry_store.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

shaders_cache::VulkanDevice identity_of(const VkPhysicalDeviceProperties& props) {
  shaders_cache::VulkanDevice d;
  std::copy(std::begin(props.pipelineCacheUUID), std::end(props.pipelineCacheUUID), d.cache_uuid.begin());
  d.vendor_id = props.vendorID;
  d.device_id = props.deviceID;
  d.driver_version = props.driverVersion;
  return d;
}

}  // namespace

// The stored data when it names this device; else nothing, and a miss.
std::vector<std::byte> PipelineCaches::seed_for(const shaders_cache::VulkanDevice& identity, const std::string& key) {
  auto stored = client_->get(key);
  if (stored && shaders_cache::pipeline_cache_fits(*stored, identity)) {
    counters_.vk_pipeline_cache_hits.fetch_add(1, kRelaxed);
    return std::move(*stored);
  }
  counters_.vk_pipeline_cache_misses.fetch_add(1, kRelaxed);
  return {};
}

void PipelineCaches::open(VkDevice device, VkPhysicalDevice gpu) {
  if (!client_) return;
  VkPhysicalDeviceProperties props{};
  dispatch_.vkGetPhysicalDeviceProperties(gpu, &props);
  const shaders_cache::VulkanDevice identity = identity_of(props);
  Kept kept{.key = shaders_cache::pipeline_cache_key(identity)};
  kept.seed = seed_for(identity, kept.key);
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = kept.seed.size();
  info.pInitialData = kept.seed.empty() ? nullptr : kept.seed.data();
  if (dispatch_.vkCreatePipelineCache(device, &info, nullptr, &kept.cache) != VK_SUCCESS) {
    // A driver that refuses the data after all: start empty.
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    kept.seed.clear();
    if (dispatch_.vkCreatePipelineCache(device, &info, nullptr, &kept.cache) != VK_SUCCESS) return;
  }
  kept_[device] = std::move(kept);
}

void PipelineCaches::supply(uint32_t opcode, void* args) const {
  if (kept_.empty()) return;
  auto own_cache = [this](VkDevice device, VkPipelineCache& cache) {
    if (cache != VK_NULL_HANDLE) return;
    auto it = kept_.find(device);
    if (it != kept_.end()) cache = it->second.cache;
  };
  if (static_cast<VkOp>(opcode) == VkOp::vkCreateGraphicsPipelines) {
    auto& a = *static_cast<VkArgs_vkCreateGraphicsPipelines*>(args);
    own_cache(a.device, a.pipelineCache);
  } else if (static_cast<VkOp>(opcode) == VkOp::vkCreateComputePipelines) {
    auto& a = *static_cast<VkArgs_vkCreateComputePipelines*>(args);
    own_cache(a.device, a.pipelineCache);
  }
}

std::vector<std::byte> PipelineCaches::data_of(VkDevice device, VkPipelineCache cache) const {
  size_t size = 0;
  if (dispatch_.vkGetPipelineCacheData(device, cache, &size, nullptr) != VK_SUCCESS ||
      size > shaders_cache::EntryStore::kMaxPayload)
    return {};
  std::vector<std::byte> data(size);
  if (dispatch_.vkGetPipelineCacheData(device, cache, &size, data.data()) != VK_SUCCESS) return {};
  data.resize(size);
  return data;
}

void PipelineCaches::close(VkDevice device) {
  auto it = kept_.find(device);
  if (it == kept_.end()) return;
  Kept kept = std::move(it->second);
  kept_.erase(it);
  const std::vector<std::byte> data = data_of(device, kept.cache);
  // Nothing new since the seed: the entry stays as it is (its hit renewed it).
  if (!data.empty() && data != kept.seed) client_->put(kept.key, data);
  dispatch_.vkDestroyPipelineCache(device, kept.cache, nullptr);
}

}  // namespace host::vk
