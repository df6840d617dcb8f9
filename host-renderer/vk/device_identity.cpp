// What the guest is told of its physical devices: Conduit's own name and
// driver beside the host's device, no conformance it has not shown, and no
// feature whose use the host refuses.
#include <algorithm>
#include <cstring>
#include <string>

#include "vk/chain.h"
#include "vk/conduit_version.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// Khronos has registered no driver ID for Conduit. Every registered one
// names another driver, and programs choose workarounds by it (zink, DXVK
// and vkd3d-proton switch on llvmpipe's, NVIDIA's, RADV's...): the host's
// own would have them work around a driver they do not talk to, whose
// bugs the host sees first. 0 is no registered driver, what a program
// reads from a driver without VK_KHR_driver_properties, for which every
// program applies none.
constexpr VkDriverId kConduitDriverId = static_cast<VkDriverId>(0);

// Writes `text` into a fixed field, cut to fit.
template <size_t N>
void write(char (&field)[N], const std::string& text) {
  const size_t n = std::min(text.size(), N - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

template <size_t N>
std::string read(const char (&field)[N]) {
  return std::string(field, strnlen(field, N));
}

// "Conduit (llvmpipe ...)": a program that shows its device shows both,
// the host's name cut (rather than the parenthesis) where both are long.
void name_device(VkPhysicalDeviceProperties& props) {
  const std::string host = read(props.deviceName).substr(0, sizeof props.deviceName - sizeof "Conduit ()");
  write(props.deviceName, "Conduit (" + host + ")");
}

// The driver is Conduit's, its info names the host's driver under it, and
// Conduit claims no conformance: it has not run the conformance suite.
void name_driver(VkDriverId& id, char (&name)[VK_MAX_DRIVER_NAME_SIZE], char (&info)[VK_MAX_DRIVER_INFO_SIZE],
                 VkConformanceVersion& conformance) {
  const std::string host = read(name) + " " + read(info);
  id = kConduitDriverId;
  write(name, "Conduit");
  write(info, std::string("Conduit ") + kConduitVersion + " on " + host);
  conformance = {};
}

void name_chain(void* next) {
  for (auto* s = static_cast<VkBaseOutStructure*>(next); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES) {
      auto& d = *reinterpret_cast<VkPhysicalDeviceDriverProperties*>(s);
      name_driver(d.driverID, d.driverName, d.driverInfo, d.conformanceVersion);
    } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES) {
      auto& v = *reinterpret_cast<VkPhysicalDeviceVulkan12Properties*>(s);
      name_driver(v.driverID, v.driverName, v.driverInfo, v.conformanceVersion);
    }
  }
}

}  // namespace

// Null descriptors (VK_EXT_robustness2's nullDescriptor) are refused by the
// host's descriptor and vertex buffer checks: the guest is not offered them.
void hide_refused_features(const void* chain) {
  auto* robustness = const_cast<VkPhysicalDeviceRobustness2FeaturesEXT*>(
      reinterpret_cast<const VkPhysicalDeviceRobustness2FeaturesEXT*>(
          find_in_chain(chain, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT)));
  if (robustness) robustness->nullDescriptor = VK_FALSE;
}

wire::Result<uint64_t> VkHandler::physical_device_properties(void* args) {
  auto& a = *static_cast<VkArgs_vkGetPhysicalDeviceProperties*>(args);
  dispatch_.vkGetPhysicalDeviceProperties(a.physicalDevice, a.pProperties);
  name_device(*a.pProperties);
  return uint64_t{0};
}

wire::Result<uint64_t> VkHandler::physical_device_properties2(void* args) {
  auto& a = *static_cast<VkArgs_vkGetPhysicalDeviceProperties2*>(args);
  dispatch_.vkGetPhysicalDeviceProperties2(a.physicalDevice, a.pProperties);
  name_device(a.pProperties->properties);
  name_chain(a.pProperties->pNext);
  return uint64_t{0};
}

wire::Result<uint64_t> VkHandler::physical_device_features2(void* args) {
  auto& a = *static_cast<VkArgs_vkGetPhysicalDeviceFeatures2*>(args);
  dispatch_.vkGetPhysicalDeviceFeatures2(a.physicalDevice, a.pFeatures);
  hide_refused_features(a.pFeatures->pNext);
  return uint64_t{0};
}

}  // namespace host::vk
