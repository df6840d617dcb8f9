// What a program is told of the device it runs on: Conduit's name beside
// the host's device, Conduit's driver and version beside the host's, no
// conformance claimed, a driver ID no program keys a workaround on, and no
// feature whose use the host refuses.
#include <cstring>
#include <string>

#include "vk_refused.h"

namespace {

using namespace guesttest;

bool starts_with(const char* text, const char* start) { return std::strncmp(text, start, std::strlen(start)) == 0; }

TEST(VulkanIdentity, TheDeviceIsConduitsOnTheHostsDevice) {
  expect_accepted([](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, &driver};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
    vkGetPhysicalDeviceProperties2(gpu, &props);
    VkPhysicalDeviceProperties plain{};
    vkGetPhysicalDeviceProperties(gpu, &plain);
    const std::string name = props.properties.deviceName;
    if (!starts_with(name.c_str(), "Conduit (") || name.back() != ')' || name.size() <= 10) std::exit(10);
    if (name != plain.deviceName) std::exit(11);
    for (const auto* d : {&driver.driverName, &v12.driverName})
      if (std::strcmp(*d, "Conduit") != 0) std::exit(12);
    for (const auto* info : {&driver.driverInfo, &v12.driverInfo})
      if (!starts_with(*info, "Conduit ") || !std::strstr(*info, " on ")) std::exit(13);
    for (const VkConformanceVersion* c : {&driver.conformanceVersion, &v12.conformanceVersion})
      if (c->major || c->minor || c->subminor || c->patch) std::exit(14);
    if (driver.driverID != 0 || v12.driverID != 0) std::exit(15);
  });
}

TEST(VulkanIdentity, NullDescriptorsTheHostRefusesAreNotOffered) {
  expect_accepted([](VkInstance, VkPhysicalDevice gpu, VkDevice) {
    VkPhysicalDeviceRobustness2FeaturesEXT robustness{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
    robustness.nullDescriptor = VK_TRUE;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &robustness};
    vkGetPhysicalDeviceFeatures2(gpu, &features);
    if (robustness.nullDescriptor) std::exit(16);
    if (!robustness.robustBufferAccess2) std::exit(17);  // the rest are the driver's (lavapipe offers it)
  });
}

}  // namespace
