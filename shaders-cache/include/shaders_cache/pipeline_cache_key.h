// The content key of a Vulkan device's pipeline cache data, and the check
// of that data's header (Vulkan 1.3, 10.7.4 "Pipeline Cache Header"): data
// is only ever handed to the device it was made by, and only when its
// header says so too. A driver validates the header again, but the host
// does not lean on every driver doing so with care.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace shaders_cache {

// What decides whether a driver takes pipeline cache data back: the
// physical device's pipelineCacheUUID, vendorID, deviceID and
// driverVersion (VkPhysicalDeviceProperties).
struct VulkanDevice {
  std::array<uint8_t, 16> cache_uuid{};
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t driver_version = 0;
};

// Covers the device and Conduit's own version.
std::string pipeline_cache_key(const VulkanDevice& device);

// Whether `data` starts with a version-one header naming `device`: its
// header size at least the header's own and within `data`, its vendor,
// device and cache UUID those of `device`.
bool pipeline_cache_fits(std::span<const std::byte> data, const VulkanDevice& device);

}  // namespace shaders_cache
