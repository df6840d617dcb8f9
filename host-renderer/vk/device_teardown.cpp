// Devices and instances end in the driver's order, whatever order the
// guest asks for (Vulkan 1.3, section 3.3.2 "Object Lifetime": children
// before their parents): an instance takes its devices with it, and a
// device its objects, before the driver sees the parent go. A driver
// asked to destroy a parent first frees what its children still point to.
#include <algorithm>
#include <iterator>

#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

namespace {

// Destroys one object of a device; pool children (command buffers,
// descriptor sets) go with their pools and are not listed.
struct ChildEnd {
  VkObjectType type;
  void (*destroy)(const HostDispatch& d, VkDevice device, uint64_t handle);
};

template <typename T>
T as(uint64_t handle) {
  return reinterpret_cast<T>(handle);
}

// Users before what they use: pools, pipelines and framebuffers before
// the layouts, passes and views they were made with, views before their
// images and buffers (memory is freed after all of them).
constexpr ChildEnd kChildEnds[] = {
    {VK_OBJECT_TYPE_COMMAND_POOL, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyCommandPool(v, as<VkCommandPool>(h), nullptr); }},
    {VK_OBJECT_TYPE_DESCRIPTOR_POOL, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyDescriptorPool(v, as<VkDescriptorPool>(h), nullptr); }},
    {VK_OBJECT_TYPE_PIPELINE, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyPipeline(v, as<VkPipeline>(h), nullptr); }},
    {VK_OBJECT_TYPE_PIPELINE_CACHE, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyPipelineCache(v, as<VkPipelineCache>(h), nullptr); }},
    {VK_OBJECT_TYPE_PIPELINE_LAYOUT, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyPipelineLayout(v, as<VkPipelineLayout>(h), nullptr); }},
    {VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyDescriptorUpdateTemplate(v, as<VkDescriptorUpdateTemplate>(h), nullptr); }},
    {VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyDescriptorSetLayout(v, as<VkDescriptorSetLayout>(h), nullptr); }},
    {VK_OBJECT_TYPE_SHADER_MODULE, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyShaderModule(v, as<VkShaderModule>(h), nullptr); }},
    {VK_OBJECT_TYPE_FRAMEBUFFER, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyFramebuffer(v, as<VkFramebuffer>(h), nullptr); }},
    {VK_OBJECT_TYPE_RENDER_PASS, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyRenderPass(v, as<VkRenderPass>(h), nullptr); }},
    {VK_OBJECT_TYPE_IMAGE_VIEW, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyImageView(v, as<VkImageView>(h), nullptr); }},
    {VK_OBJECT_TYPE_BUFFER_VIEW, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyBufferView(v, as<VkBufferView>(h), nullptr); }},
    {VK_OBJECT_TYPE_SAMPLER, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroySampler(v, as<VkSampler>(h), nullptr); }},
    {VK_OBJECT_TYPE_SAMPLER_YCBCR_CONVERSION, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroySamplerYcbcrConversion(v, as<VkSamplerYcbcrConversion>(h), nullptr); }},
    {VK_OBJECT_TYPE_IMAGE, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyImage(v, as<VkImage>(h), nullptr); }},
    {VK_OBJECT_TYPE_BUFFER, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyBuffer(v, as<VkBuffer>(h), nullptr); }},
    {VK_OBJECT_TYPE_QUERY_POOL, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyQueryPool(v, as<VkQueryPool>(h), nullptr); }},
    {VK_OBJECT_TYPE_EVENT, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyEvent(v, as<VkEvent>(h), nullptr); }},
    {VK_OBJECT_TYPE_SEMAPHORE, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroySemaphore(v, as<VkSemaphore>(h), nullptr); }},
    {VK_OBJECT_TYPE_FENCE, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyFence(v, as<VkFence>(h), nullptr); }},
    {VK_OBJECT_TYPE_PRIVATE_DATA_SLOT, [](const HostDispatch& d, VkDevice v, uint64_t h) { d.vkDestroyPrivateDataSlot(v, as<VkPrivateDataSlot>(h), nullptr); }},
};

}  // namespace

// What the program left of the device goes first, in the order above;
// then its memory, then the device. Every id of it leaves the table.
wire::Result<uint64_t> VkHandler::destroy_device(void* args) {
  auto& a = *static_cast<VkArgs_vkDestroyDevice*>(args);
  if (!a.device) return uint64_t{0};
  if (!settle_device(a.device))
    return wire::make_error(wire::Errc::kTimeout, "vkDestroyDevice of a device whose work does not finish");
  pipeline_caches_.close(a.device);  // while the device's pipelines are still in it
  dispatch_clamps_.close(a.device);
  forget_clocks_of(a.device);
  const auto device = reinterpret_cast<uint64_t>(a.device);
  for (const ChildEnd& end : kChildEnds)
    for (uint64_t child : handles_.children_of(device, end.type)) end.destroy(dispatch_, a.device, child);
  free_memory_of(a.device);
  handles_.remove_children(device);
  std::erase_if(children_, [device](const auto& pool) { return pool.second.device == device; });
  forget_shapes_of(device);
  dispatch_.vkDestroyDevice(a.device, nullptr);
  return uint64_t{0};
}

// The instance's devices end first, each as if the guest had destroyed it.
wire::Result<uint64_t> VkHandler::destroy_instance(void* args) {
  auto& a = *static_cast<VkArgs_vkDestroyInstance*>(args);
  if (!a.instance) return uint64_t{0};
  std::vector<VkDevice> of_instance;
  for (VkDevice d : devices_) {
    auto gpu = gpu_instances_.find(device_gpus_[d]);
    if (gpu != gpu_instances_.end() && gpu->second == a.instance) of_instance.push_back(d);
  }
  for (VkDevice d : of_instance)
    if (!end_device(d))
      return wire::make_error(wire::Errc::kTimeout, "vkDestroyInstance of a device whose work does not finish");
  // Its physical devices end with it (the loader frees them): their ids
  // name nothing from now on.
  std::erase_if(gpu_instances_, [&](const auto& entry) {
    if (entry.second != a.instance) return false;
    handles_.remove(VK_OBJECT_TYPE_PHYSICAL_DEVICE, reinterpret_cast<uint64_t>(entry.first));
    return true;
  });
  dispatch_.vkDestroyInstance(a.instance, nullptr);
  return uint64_t{0};
}

bool VkHandler::end_device(VkDevice device) {
  constexpr auto kOp = static_cast<uint32_t>(VkOp::vkDestroyDevice);
  const CommandDesc& cmd = *command_desc(kOp);
  VkArgs_vkDestroyDevice args{device, nullptr};
  if (!destroy_device(&args)) return false;
  forget_destroyed(*destroyed_param(cmd), &args);
  note_recording(kOp, cmd, &args);
  note_children(kOp, &args);
  note_in_flight(kOp, &args);
  resources_.note(kOp, &args);
  return true;
}

// Which instance each physical device came from, for the instance's end.
void VkHandler::note_physical_devices(uint32_t opcode, const void* args) {
  if (static_cast<VkOp>(opcode) == VkOp::vkEnumeratePhysicalDevices) {
    const auto& a = *static_cast<const VkArgs_vkEnumeratePhysicalDevices*>(args);
    for (uint32_t i = 0; a.pPhysicalDevices && i < *a.pPhysicalDeviceCount; ++i)
      gpu_instances_[a.pPhysicalDevices[i]] = a.instance;
  } else if (static_cast<VkOp>(opcode) == VkOp::vkEnumeratePhysicalDeviceGroups) {
    const auto& a = *static_cast<const VkArgs_vkEnumeratePhysicalDeviceGroups*>(args);
    for (uint32_t i = 0; a.pPhysicalDeviceGroupProperties && i < *a.pPhysicalDeviceGroupCount; ++i) {
      const VkPhysicalDeviceGroupProperties& group = a.pPhysicalDeviceGroupProperties[i];
      for (uint32_t j = 0; j < std::min<uint32_t>(group.physicalDeviceCount, VK_MAX_DEVICE_GROUP_SIZE); ++j)
        gpu_instances_[group.physicalDevices[j]] = a.instance;
    }
  }
}

}  // namespace host::vk
