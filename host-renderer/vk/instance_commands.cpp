// The commands whose driver call needs the host's care first: instances and
// devices get only the extensions Conduit carries, and the guest is told of
// no others.
#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "vk/chain.h"
#include "vk/dynamic_state3.h"
#include "vk/refusal.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

bool carried(std::string_view name, bool instance) {
  for (const CarriedExtension& e : carried_extensions())
    if (e.instance == instance && name == e.name) return true;
  return false;
}

// Surfaces and swapchains are the guest's own: the host never makes one.
bool guest_only(std::string_view name) {
  return name == "VK_KHR_surface" || name == "VK_KHR_xcb_surface" || name == "VK_KHR_xlib_surface" ||
         name == "VK_EXT_headless_surface" || name == "VK_KHR_swapchain" || name == "VK_KHR_incremental_present" ||
         name == "VK_KHR_get_surface_capabilities2" || name == "VK_KHR_surface_protected_capabilities";
}

// Links `item` at the head of `head`'s pNext chain.
template <typename Head, typename Item>
void chain_in(Head& head, Item& item) {
  item.pNext = head.pNext;
  head.pNext = &item;
}

// The driver's extensions that are carried (a guest asks by name, and may
// ask twice: first how many).
std::vector<VkExtensionProperties> carried_of(const std::vector<VkExtensionProperties>& all, bool instance) {
  std::vector<VkExtensionProperties> out;
  for (const auto& e : all)
    if (carried(e.extensionName, instance) && !guest_only(e.extensionName)) out.push_back(e);
  return out;
}

// Answers an enumeration the way the driver would, from a list of our own.
uint64_t answer(const std::vector<VkExtensionProperties>& list, uint32_t* count, VkExtensionProperties* out) {
  if (!count) return static_cast<uint64_t>(VK_ERROR_INITIALIZATION_FAILED);
  return static_cast<uint64_t>(static_cast<int64_t>(answer_enumeration<VkExtensionProperties>(list, count, out)));
}

template <typename Enumerate>
std::vector<VkExtensionProperties> all_of(Enumerate enumerate) {
  uint32_t n = 0;
  if (enumerate(&n, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> v(n);
  if (enumerate(&n, v.data()) < 0) return {};
  v.resize(n);
  return v;
}

bool all_offered(const char* const* names, uint32_t count, const std::vector<VkExtensionProperties>& offered) {
  for (uint32_t i = 0; i < count; ++i) {
    auto same = [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, names[i]) == 0; };
    if (!guest_only(names[i]) && std::none_of(offered.begin(), offered.end(), same)) return false;
  }
  return true;
}

}  // namespace

wire::Result<uint64_t> VkHandler::enumerate_instance_extensions(void* args) {
  auto& a = *static_cast<VkArgs_vkEnumerateInstanceExtensionProperties*>(args);
  if (a.pLayerName) return static_cast<uint64_t>(VK_ERROR_LAYER_NOT_PRESENT);  // no host layers
  auto list = carried_of(all_of([&](uint32_t* n, VkExtensionProperties* p) {
    return dispatch_.vkEnumerateInstanceExtensionProperties(nullptr, n, p);
  }), true);
  return answer(list, a.pPropertyCount, a.pProperties);
}

wire::Result<uint64_t> VkHandler::enumerate_device_extensions(void* args) {
  auto& a = *static_cast<VkArgs_vkEnumerateDeviceExtensionProperties*>(args);
  if (a.pLayerName) return static_cast<uint64_t>(VK_ERROR_LAYER_NOT_PRESENT);
  auto list = carried_of(all_of([&](uint32_t* n, VkExtensionProperties* p) {
    return dispatch_.vkEnumerateDeviceExtensionProperties(a.physicalDevice, nullptr, n, p);
  }), false);
  return answer(list, a.pPropertyCount, a.pProperties);
}

wire::Result<uint64_t> VkHandler::create_instance(void* args) {
  auto& a = *static_cast<VkArgs_vkCreateInstance*>(args);
  VkInstanceCreateInfo info = *a.pCreateInfo;
  auto offered = carried_of(all_of([&](uint32_t* n, VkExtensionProperties* p) {
    return dispatch_.vkEnumerateInstanceExtensionProperties(nullptr, n, p);
  }), true);
  if (!all_offered(info.ppEnabledExtensionNames, info.enabledExtensionCount, offered))
    return static_cast<uint64_t>(VK_ERROR_EXTENSION_NOT_PRESENT);
  // The guest's loader runs the guest's layers; the host's are not offered.
  std::vector<const char*> names;
  for (uint32_t i = 0; i < info.enabledExtensionCount; ++i)
    if (!guest_only(info.ppEnabledExtensionNames[i])) names.push_back(info.ppEnabledExtensionNames[i]);
  info.enabledLayerCount = 0;
  info.ppEnabledLayerNames = nullptr;
  info.enabledExtensionCount = static_cast<uint32_t>(names.size());
  info.ppEnabledExtensionNames = names.data();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  if (info.pApplicationInfo) app = *info.pApplicationInfo;
  // The newest version Conduit carries that the loader has, whatever the
  // program asked: a driver gives no entry point for a core command past
  // its instance's version (lavapipe), and a program of an older version
  // still calls such a command by an extension's name, which travels as
  // the core one (vkGetDeviceBufferMemoryRequirementsKHR of
  // VK_KHR_maintenance4). At least 1.1, whose core the host's own use of
  // shared memory needs (external memory, shared_area.cpp).
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (dispatch_.vkEnumerateInstanceVersion) dispatch_.vkEnumerateInstanceVersion(&loader_version);
  app.apiVersion = std::clamp<uint32_t>(loader_version, VK_API_VERSION_1_1, VK_API_VERSION_1_3);
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult r = dispatch_.vkCreateInstance(&info, nullptr, &instance);
  if (r != VK_SUCCESS) return static_cast<uint64_t>(r);
  *a.pInstance = instance;
  instances_.push_back(instance);
  // The loader's entry points serve every instance and device alike; those
  // of extensions an earlier instance lacked are found through this one.
  dispatch_.load(vkGetInstanceProcAddr, instance);
  instance_extensions_[instance] = {names.begin(), names.end()};
  return uint64_t{VK_SUCCESS};
}

// Shaders index buffers by numbers of the guest's own: with
// robustBufferAccess the driver keeps every shader access and vertex fetch
// inside the buffer bound (Vulkan 1.3, section 47.1 "Robust Buffer Access").
// It is on for every device that has it, whatever the guest asked.
void VkHandler::bounds_shader_reads(VkPhysicalDevice gpu, VkDeviceCreateInfo& info, VkPhysicalDeviceFeatures& features) {
  VkPhysicalDeviceFeatures offered{};
  dispatch_.vkGetPhysicalDeviceFeatures(gpu, &offered);
  if (!offered.robustBufferAccess) return;
  auto* chained = const_cast<VkPhysicalDeviceFeatures2*>(reinterpret_cast<const VkPhysicalDeviceFeatures2*>(
      find_in_chain(info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)));  // decoded into the host's arena
  if (chained) {
    chained->features.robustBufferAccess = VK_TRUE;
    return;
  }
  if (info.pEnabledFeatures) features = *info.pEnabledFeatures;
  features.robustBufferAccess = VK_TRUE;
  info.pEnabledFeatures = &features;
}

bool VkHandler::offers_protected_memory(VkPhysicalDevice gpu) const {
  VkPhysicalDeviceProtectedMemoryFeatures protected_memory{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &protected_memory};
  dispatch_.vkGetPhysicalDeviceFeatures2(gpu, &features);
  return protected_memory.protectedMemory;
}

// Vulkan 1.3, 5.2.1 "Device Creation": a device asks for at least one
// queue, each request of a family the physical device has, named once, for
// one to as many queues as the family has, protected ones only where the
// device offers protected memory (VUID-VkDeviceQueueCreateInfo-flags-02861).
// Drivers index their families and queues by these (lavapipe crashed
// making a device without a queue).
wire::Status VkHandler::check_queue_requests(VkPhysicalDevice gpu, const VkDeviceCreateInfo& info) {
  if (info.queueCreateInfoCount == 0 || !info.pQueueCreateInfos) return refused("vkCreateDevice", "without a queue");
  uint32_t count = 0;
  dispatch_.vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  dispatch_.vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, families.data());
  std::vector<bool> named(count);
  for (uint32_t i = 0; i < info.queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& request = info.pQueueCreateInfos[i];
    if (request.queueFamilyIndex >= count || named[request.queueFamilyIndex])
      return refused("vkCreateDevice", "of a queue family the device lacks, or of one twice");
    named[request.queueFamilyIndex] = true;
    if (request.queueCount == 0 || request.queueCount > families[request.queueFamilyIndex].queueCount)
      return refused("vkCreateDevice", "of no queues, or of more than their family has");
    if ((request.flags & VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT) && !offers_protected_memory(gpu))
      return refused("vkCreateDevice", "of protected queues on a device without protected memory");
  }
  return {};
}

wire::Result<uint64_t> VkHandler::create_device(void* args) {
  auto& a = *static_cast<VkArgs_vkCreateDevice*>(args);
  WIRE_TRY(check_queue_requests(a.physicalDevice, *a.pCreateInfo));
  auto offered = carried_of(all_of([&](uint32_t* n, VkExtensionProperties* p) {
    return dispatch_.vkEnumerateDeviceExtensionProperties(a.physicalDevice, nullptr, n, p);
  }), false);
  if (!all_offered(a.pCreateInfo->ppEnabledExtensionNames, a.pCreateInfo->enabledExtensionCount, offered))
    return static_cast<uint64_t>(VK_ERROR_EXTENSION_NOT_PRESENT);
  VkDeviceCreateInfo info = *a.pCreateInfo;
  info.enabledLayerCount = 0;
  info.ppEnabledLayerNames = nullptr;
  std::vector<const char*> names;
  for (uint32_t i = 0; i < info.enabledExtensionCount; ++i)
    if (!guest_only(info.ppEnabledExtensionNames[i])) names.push_back(info.ppEnabledExtensionNames[i]);
  const bool imports = add_area_import(all_of([&](uint32_t* n, VkExtensionProperties* p) {
    return dispatch_.vkEnumerateDeviceExtensionProperties(a.physicalDevice, nullptr, n, p);
  }), names);
  info.enabledExtensionCount = static_cast<uint32_t>(names.size());
  info.ppEnabledExtensionNames = names.data();
  VkPhysicalDeviceFeatures features{};
  bounds_shader_reads(a.physicalDevice, info, features);
  hide_refused_features(info.pNext);  // the guest was not offered them
  VkDevice device = VK_NULL_HANDLE;
  const VkResult r = dispatch_.vkCreateDevice(a.physicalDevice, &info, nullptr, &device);
  if (r != VK_SUCCESS) return static_cast<uint64_t>(r);
  *a.pDevice = device;
  devices_.push_back(device);
  device_gpus_[device] = a.physicalDevice;
  // Extensions' limits only where the guest enabled them: their commands
  // are refused on another device.
  auto enabled = [&names](std::string_view extension) {
    return std::any_of(names.begin(), names.end(), [&](const char* name) { return extension == name; });
  };
  VkPhysicalDeviceTransformFeedbackPropertiesEXT feedback{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
  VkPhysicalDeviceMultiDrawPropertiesEXT multi_draw{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT};
  VkPhysicalDevicePushDescriptorPropertiesKHR push{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT divisor{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  const bool feeds_back = enabled(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
  const bool draws_many = enabled(VK_EXT_MULTI_DRAW_EXTENSION_NAME);
  const bool pushes = enabled(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (feeds_back) chain_in(props2, feedback);
  if (draws_many) chain_in(props2, multi_draw);
  if (pushes) chain_in(props2, push);
  const bool divides = enabled(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
  if (divides) chain_in(props2, divisor);
  dispatch_.vkGetPhysicalDeviceProperties2(a.physicalDevice, &props2);
  const VkPhysicalDeviceProperties& props = props2.properties;
  device_extensions_[raw_handle(device)] = {names.begin(), names.end()};
  device_limits_[device] = {
      .push_constant_bytes = props.limits.maxPushConstantsSize,
      .vertex_input = {props.limits.maxVertexInputBindings, props.limits.maxVertexInputAttributes,
                       props.limits.maxVertexInputAttributeOffset, props.limits.maxVertexInputBindingStride,
                       divides ? divisor.maxVertexAttribDivisor : 0},
      .viewports = props.limits.maxViewports,
      .feedback_buffers = feeds_back ? std::min(feedback.maxTransformFeedbackBuffers, 32u) : 0,
      .feedback_streams = feeds_back ? feedback.maxTransformFeedbackStreams : 0,
      .feedback_stride = feeds_back ? feedback.maxTransformFeedbackBufferDataStride : 0,
      .color_attachments = props.limits.maxColorAttachments,
      .multi_draws = draws_many ? multi_draw.maxMultiDrawCount : 0,
      .compute_groups = {props.limits.maxComputeWorkGroupCount[0], props.limits.maxComputeWorkGroupCount[1],
                         props.limits.maxComputeWorkGroupCount[2]},
      .dynamic_state3 = enabled(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME) ? dynamic_state3_features(info.pNext) : 0,
      .single_sampled_counts = enabled(VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME)
                                   ? props.limits.framebufferColorSampleCounts &
                                         props.limits.framebufferDepthSampleCounts &
                                         props.limits.framebufferStencilSampleCounts & ~VkSampleCountFlags{1}
                                   : 0};
  resources_.set_push_descriptor_limit(raw_handle(device), pushes ? push.maxPushDescriptors : 0);
  auto& queues = device_queues_[device];
  for (uint32_t i = 0; i < info.queueCreateInfoCount; ++i)
    queues.push_back({info.pQueueCreateInfos[i].queueFamilyIndex, info.pQueueCreateInfos[i].queueCount,
                      info.pQueueCreateInfos[i].flags});
  if (imports) area_devices_.insert(device);
  pipeline_caches_.open(device, a.physicalDevice);
  return uint64_t{VK_SUCCESS};
}

}  // namespace host::vk
