// Pipeline cache keys name one device and driver; data whose header names
// another device, or whose header is short or damaged, does not fit.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "shaders_cache/pipeline_cache_key.h"

namespace {

using shaders_cache::pipeline_cache_fits;
using shaders_cache::pipeline_cache_key;
using shaders_cache::VulkanDevice;

VulkanDevice lavapipe_like() {
  VulkanDevice d;
  for (size_t i = 0; i < d.cache_uuid.size(); ++i) d.cache_uuid[i] = static_cast<uint8_t>(0xa0 + i);
  d.vendor_id = 0x10005;
  d.device_id = 0;
  d.driver_version = 0x5803006;
  return d;
}

// A version-one header for `d`, then `extra` bytes of the driver's own.
std::vector<std::byte> data_of(const VulkanDevice& d, size_t extra = 8) {
  std::vector<std::byte> out(32 + extra, std::byte{0x5a});
  const uint32_t fields[] = {32, 1, d.vendor_id, d.device_id};
  std::memcpy(out.data(), fields, sizeof fields);
  std::memcpy(out.data() + 16, d.cache_uuid.data(), 16);
  return out;
}

TEST(PipelineCacheKey, EachDeviceFieldChangesTheKey) {
  const VulkanDevice d = lavapipe_like();
  const std::string key = pipeline_cache_key(d);
  EXPECT_EQ(key, pipeline_cache_key(lavapipe_like()));
  VulkanDevice other = d;
  other.driver_version += 1;
  EXPECT_NE(pipeline_cache_key(other), key);
  other = d;
  other.cache_uuid[15] ^= 1;
  EXPECT_NE(pipeline_cache_key(other), key);
  other = d;
  other.vendor_id += 1;
  EXPECT_NE(pipeline_cache_key(other), key);
  other = d;
  other.device_id += 1;
  EXPECT_NE(pipeline_cache_key(other), key);
}

TEST(PipelineCacheKey, DataFitsOnlyItsOwnDevice) {
  const VulkanDevice d = lavapipe_like();
  EXPECT_TRUE(pipeline_cache_fits(data_of(d), d));
  EXPECT_TRUE(pipeline_cache_fits(data_of(d, 0), d));
  VulkanDevice other = d;
  other.cache_uuid[0] ^= 1;
  EXPECT_FALSE(pipeline_cache_fits(data_of(other), d));
  other = d;
  other.vendor_id = 0x10de;
  EXPECT_FALSE(pipeline_cache_fits(data_of(other), d));
  other = d;
  other.device_id = 7;
  EXPECT_FALSE(pipeline_cache_fits(data_of(other), d));
}

TEST(PipelineCacheKey, ShortOrDamagedHeadersDoNotFit) {
  const VulkanDevice d = lavapipe_like();
  auto data = data_of(d);
  EXPECT_FALSE(pipeline_cache_fits(std::span(data).first(31), d));
  EXPECT_FALSE(pipeline_cache_fits({}, d));
  auto bad_version = data;
  bad_version[4] = std::byte{2};
  EXPECT_FALSE(pipeline_cache_fits(bad_version, d));
  auto small_header = data;
  small_header[0] = std::byte{16};
  EXPECT_FALSE(pipeline_cache_fits(small_header, d));
  auto long_header = data;
  long_header[0] = std::byte{200};  // longer than the data
  EXPECT_FALSE(pipeline_cache_fits(long_header, d));
}

}  // namespace
