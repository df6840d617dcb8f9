// Swapchains: images on the host the program renders into like any other,
// each with a host-visible buffer it is copied into at present. The host
// sends the copy as a frame once it is done, and the guest's presenter shows
// it in the surface's window: a present waits for nothing. Everything here
// goes through the ICD's own entry points, as a program's calls would.
#include <memory>
#include <vector>

#include "conn/connection.h"
#include "vk/entry.h"
#include "vk/fences.h"
#include "vk/memory.h"
#include "vk/wsi.h"
#include "wire/vk_memory.h"

namespace icd::vk {

namespace {

// The ICD's own entry point, looked up by name once (presents call some
// every frame).
#define ICD(name)                                                                  \
  ([] {                                                                            \
    static const auto entry = reinterpret_cast<PFN_##name>(icd_lookup(#name));     \
    return entry;                                                                  \
  }())

struct SwapImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBuffer readback = VK_NULL_HANDLE;
  VkDeviceMemory readback_memory = VK_NULL_HANDLE;
  VkCommandBuffer copy = VK_NULL_HANDLE;  // image -> readback, recorded once
};

struct Swapchain {
  VkDevice device = VK_NULL_HANDLE;
  GuestSurface* surface = nullptr;
  VkExtent2D extent{};
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;
  std::vector<SwapImage> images;
  uint32_t next = 0;
  WindowFrames* frames = nullptr;  // the surface's (windows only; headless shows nothing)
};

Swapchain* swapchain_of(VkSwapchainKHR s) { return reinterpret_cast<Swapchain*>(s); }

// The first memory type the requirements allow with `want`, else any allowed.
uint32_t memory_type(VkDevice device, uint32_t allowed, VkMemoryPropertyFlags want) {
  uint32_t any = UINT32_MAX;
  for (uint32_t i = 0; i < 32; ++i) {
    if (!(allowed & (1u << i))) continue;
    if ((memory_type_flags(device, i) & want) == want) return i;
    if (any == UINT32_MAX) any = i;
  }
  return any;
}

VkResult allocate(VkDevice device, const VkMemoryRequirements& req, VkMemoryPropertyFlags want,
                  VkDeviceMemory* memory) {
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = req.size;
  info.memoryTypeIndex = memory_type(device, req.memoryTypeBits, want);
  return ICD(vkAllocateMemory)(device, &info, nullptr, memory);
}

VkResult make_image(Swapchain& sc, const VkSwapchainCreateInfoKHR& ci, SwapImage& img) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = ci.imageFormat;
  info.extent = {ci.imageExtent.width, ci.imageExtent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = ci.imageUsage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult r = ICD(vkCreateImage)(sc.device, &info, nullptr, &img.image);
  if (r != VK_SUCCESS) return r;
  VkMemoryRequirements req{};
  ICD(vkGetImageMemoryRequirements)(sc.device, img.image, &req);
  if ((r = allocate(sc.device, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &img.memory)) != VK_SUCCESS) return r;
  return ICD(vkBindImageMemory)(sc.device, img.image, img.memory, 0);
}

// The buffer a window's image is copied into for the host to send.
VkResult make_readback(Swapchain& sc, const VkSwapchainCreateInfoKHR& ci, SwapImage& img) {
  VkMemoryRequirements req{};
  VkResult r = VK_SUCCESS;
  VkBufferCreateInfo buf{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buf.size = VkDeviceSize{ci.imageExtent.width} * ci.imageExtent.height * 4;
  buf.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if ((r = ICD(vkCreateBuffer)(sc.device, &buf, nullptr, &img.readback)) != VK_SUCCESS) return r;
  ICD(vkGetBufferMemoryRequirements)(sc.device, img.readback, &req);
  const VkMemoryPropertyFlags visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  if ((r = allocate(sc.device, req, visible, &img.readback_memory)) != VK_SUCCESS) return r;
  return ICD(vkBindBufferMemory)(sc.device, img.readback, img.readback_memory, 0);
}

VkImageMemoryBarrier layout_change(VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                                   VkAccessFlags dst) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return b;
}

// An image the program presents is in PRESENT_SRC; it is copied and left so.
VkResult record_copy(Swapchain& sc, SwapImage& img) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  VkResult r = ICD(vkBeginCommandBuffer)(img.copy, &begin);
  if (r != VK_SUCCESS) return r;
  auto to_copy = layout_change(img.image, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  ICD(vkCmdPipelineBarrier)(img.copy, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                            nullptr, 0, nullptr, 1, &to_copy);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {sc.extent.width, sc.extent.height, 1};
  ICD(vkCmdCopyImageToBuffer)(img.copy, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img.readback, 1, &region);
  auto back = layout_change(img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                            VK_ACCESS_TRANSFER_READ_BIT, 0);
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  ICD(vkCmdPipelineBarrier)(img.copy, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 1, &to_host, 0,
                            nullptr, 1, &back);
  return ICD(vkEndCommandBuffer)(img.copy);
}

void destroy(Swapchain* sc) {
  if (!sc) return;
  if (sc->queue) ICD(vkQueueWaitIdle)(sc->queue);
  for (SwapImage& img : sc->images) {
    ICD(vkDestroyBuffer)(sc->device, img.readback, nullptr);
    ICD(vkFreeMemory)(sc->device, img.readback_memory, nullptr);
    ICD(vkDestroyImage)(sc->device, img.image, nullptr);
    ICD(vkFreeMemory)(sc->device, img.memory, nullptr);
  }
  if (sc->pool) ICD(vkDestroyCommandPool)(sc->device, sc->pool, nullptr);
  if (sc->done) ICD(vkDestroyFence)(sc->device, sc->done, nullptr);
  delete sc;
}

VkResult build(Swapchain& sc, const VkSwapchainCreateInfoKHR& ci) {
  ICD(vkGetDeviceQueue)(sc.device, 0, 0, &sc.queue);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkResult r = ICD(vkCreateCommandPool)(sc.device, &pool, nullptr, &sc.pool);
  if (r != VK_SUCCESS) return r;
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if ((r = ICD(vkCreateFence)(sc.device, &fence, nullptr, &sc.done)) != VK_SUCCESS) return r;
  sc.images.resize(std::max<uint32_t>(ci.minImageCount, 2));
  if (sc.surface->presenter) {
    if (!sc.surface->frames) sc.surface->frames = WindowFrames::open(*sc.surface->presenter);
    if (!(sc.frames = sc.surface->frames.get())) return VK_ERROR_DEVICE_LOST;
  }
  for (SwapImage& img : sc.images) {
    if ((r = make_image(sc, ci, img)) != VK_SUCCESS) return r;
    if (!sc.frames) continue;
    if ((r = make_readback(sc, ci, img)) != VK_SUCCESS) return r;
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = sc.pool;
    alloc.commandBufferCount = 1;
    if ((r = ICD(vkAllocateCommandBuffers)(sc.device, &alloc, &img.copy)) != VK_SUCCESS) return r;
    if ((r = record_copy(sc, img)) != VK_SUCCESS) return r;
  }
  return VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL create_swapchain(VkDevice device, const VkSwapchainCreateInfoKHR* ci,
                                               const VkAllocationCallbacks*, VkSwapchainKHR* out) {
  auto* sc = new Swapchain;
  sc->device = device;
  sc->surface = surface_of(ci->surface);
  sc->extent = ci->imageExtent;
  const VkResult r = build(*sc, *ci);
  if (r != VK_SUCCESS) {
    destroy(sc);
    return r;
  }
  *out = reinterpret_cast<VkSwapchainKHR>(sc);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL destroy_swapchain(VkDevice, VkSwapchainKHR swapchain, const VkAllocationCallbacks*) {
  destroy(swapchain_of(swapchain));
}

VKAPI_ATTR VkResult VKAPI_CALL swapchain_images(VkDevice, VkSwapchainKHR swapchain, uint32_t* count, VkImage* out) {
  std::vector<VkImage> images;
  for (const SwapImage& img : swapchain_of(swapchain)->images) images.push_back(img.image);
  return wire::vk::answer_enumeration<VkImage>(images, count, out);
}

namespace {

// The next image in turn: presenting finished with it already. The
// semaphore and fence are signalled on the host, in queue order.
VkResult acquire(VkSwapchainKHR swapchain, VkSemaphore semaphore, VkFence fence, uint32_t* index) {
  Swapchain& sc = *swapchain_of(swapchain);
  *index = sc.next;
  sc.next = (sc.next + 1) % sc.images.size();
  if (!semaphore && !fence) return VK_SUCCESS;
  VkSubmitInfo signal{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  signal.signalSemaphoreCount = semaphore ? 1 : 0;
  signal.pSignalSemaphores = &semaphore;
  return ICD(vkQueueSubmit)(sc.queue, 1, &signal, fence);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL acquire_next_image(VkDevice, VkSwapchainKHR swapchain, uint64_t, VkSemaphore semaphore,
                                                 VkFence fence, uint32_t* index) {
  return acquire(swapchain, semaphore, fence, index);
}

VKAPI_ATTR VkResult VKAPI_CALL acquire_next_image2(VkDevice, const VkAcquireNextImageInfoKHR* info, uint32_t* index) {
  return acquire(info->swapchain, info->semaphore, info->fence, index);
}

namespace {

uint64_t id_of(VkFence f) { return reinterpret_cast<uint64_t>(f); }
uint64_t id_of(VkDeviceMemory m) { return reinterpret_cast<uint64_t>(m); }

// A present without a window still consumes the program's semaphores.
VkResult consume_waits(Swapchain& sc, std::span<const VkSemaphore> waits) {
  if (waits.empty()) return VK_SUCCESS;
  std::vector<VkPipelineStageFlags> stages(waits.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = static_cast<uint32_t>(waits.size());
  submit.pWaitSemaphores = waits.data();
  submit.pWaitDstStageMask = stages.data();
  return ICD(vkQueueSubmit)(sc.queue, 1, &submit, VK_NULL_HANDLE);
}

// At most as many frames on their way back as the swapchain has images: a
// program that never waits for its own fences is held to the host's pace.
bool throttle(Swapchain& sc, uint32_t frame_id) {
  const auto in_flight = static_cast<uint32_t>(sc.images.size());
  Connection& conn = sc.frames->connection();
  if (frame_id - sc.frames->received() < in_flight) return true;
  return conn.wait_until([&] { return frame_id - sc.frames->received() < in_flight; }, conn.timeout(),
                         wire::kVulkanContextId);
}

// Copies the image once the program's rendering is done; the host sends
// the copy as a frame when it is finished. A window whose size changed
// makes the swapchain suboptimal.
VkResult present_one(Swapchain& sc, uint32_t index, std::span<const VkSemaphore> waits) {
  if (!sc.frames) return consume_waits(sc, waits);
  std::vector<VkPipelineStageFlags> stages(waits.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = static_cast<uint32_t>(waits.size());
  submit.pWaitSemaphores = waits.data();
  submit.pWaitDstStageMask = stages.data();
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &sc.images[index].copy;
  VkResult r = ICD(vkQueueSubmit)(sc.queue, 1, &submit, sc.done);
  if (r != VK_SUCCESS) return r;
  const uint32_t frame_id = sc.frames->next_frame();
  const wire::Frame frame{sc.frames->id(), frame_id, sc.extent.width, sc.extent.height, sc.extent.width * 4};
  send_async(static_cast<uint32_t>(wire::vk::MemoryOp::kPresentMemory), [&](wire::Writer& w) {
    w.put(wire::vk::PresentMemory{id_of(sc.done), id_of(sc.images[index].readback_memory), frame, 0});
  });
  note_presented(sc.done);
  if ((r = ICD(vkResetFences)(sc.device, 1, &sc.done)) != VK_SUCCESS) return r;
  send_commands_now();
  sc.frames->connection().stats().swaps++;  // a present is a swap: round trips per frame count them
  if (!throttle(sc, frame_id)) return VK_ERROR_DEVICE_LOST;
  VkExtent2D now{};
  if (!sc.surface->window_extent(&now)) return VK_ERROR_SURFACE_LOST_KHR;
  return now.width == sc.extent.width && now.height == sc.extent.height ? VK_SUCCESS : VK_SUBOPTIMAL_KHR;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL queue_present(VkQueue, const VkPresentInfoKHR* info) {
  VkResult worst = VK_SUCCESS;
  for (uint32_t i = 0; i < info->swapchainCount; ++i) {
    // The program's semaphores are waited for once, by the first copy.
    std::span<const VkSemaphore> waits;
    if (i == 0) waits = {info->pWaitSemaphores, info->waitSemaphoreCount};
    const VkResult r = present_one(*swapchain_of(info->pSwapchains[i]), info->pImageIndices[i], waits);
    if (info->pResults) info->pResults[i] = r;
    if (r < 0 || worst == VK_SUCCESS) worst = r < 0 || r == VK_SUBOPTIMAL_KHR ? r : worst;
  }
  return worst;
}

}  // namespace icd::vk
