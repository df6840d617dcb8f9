#include "shaders_cache/pipeline_cache_key.h"

#include <cstring>

#include "shaders_cache/content_hash.h"
#include "shaders_cache/program_key.h"

namespace shaders_cache {
namespace {

// Bumped whenever what the key covers changes.
constexpr uint64_t kKeyLayout = 1;

// VkPipelineCacheHeaderVersionOne: headerSize, headerVersion, vendorID,
// deviceID (4 bytes each, in the host's order), then the 16-byte UUID.
constexpr size_t kHeaderBytes = 32;
constexpr uint32_t kHeaderVersionOne = 1;

uint32_t u32_at(std::span<const std::byte> data, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, data.data() + at, sizeof v);
  return v;
}

}  // namespace

std::string pipeline_cache_key(const VulkanDevice& device) {
  ContentHash h;
  h.add(std::string_view("vk pipeline cache"))
      .add(kKeyLayout)
      .add(std::string_view(conduit_version()))
      .add(std::span<const std::byte>(reinterpret_cast<const std::byte*>(device.cache_uuid.data()),
                                      device.cache_uuid.size()));
  return h.add(uint64_t{device.vendor_id}).add(uint64_t{device.device_id}).add(uint64_t{device.driver_version}).hex();
}

bool pipeline_cache_fits(std::span<const std::byte> data, const VulkanDevice& device) {
  if (data.size() < kHeaderBytes) return false;
  const uint32_t header_size = u32_at(data, 0);
  return header_size >= kHeaderBytes && header_size <= data.size() && u32_at(data, 4) == kHeaderVersionOne &&
         u32_at(data, 8) == device.vendor_id && u32_at(data, 12) == device.device_id &&
         std::memcmp(data.data() + 16, device.cache_uuid.data(), device.cache_uuid.size()) == 0;
}

}  // namespace shaders_cache
