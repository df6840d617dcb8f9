// Writes the Vulkan session target's own seeds (tests/fuzz/seeds/vk-session):
// valid uses of the prelude's objects, one class of the host's checks each
// (transfers, descriptors, compute, drawing, queries and events, mapped
// memory), so the fuzzer starts from commands that pass them and changes
// their values from there. Recorded programs' streams are seeds too (they
// make objects of their own).
// With CRASHES_DIR, it writes there the crash inputs made by hand beside
// those the fuzzer found (seeds/vk-session-crashes).
//   usage: fuzz-vk-seeds DIR [CRASHES_DIR]
#include <cstdio>
#include <fstream>
#include <functional>
#include <span>
#include <string>

#include "vk_prelude.h"
#include "wire/vk_memory.h"

namespace {

using namespace fuzz::vk;
using wire::vk::VkOp;
namespace a = wire::vk;

const VkCommandBuffer kCb = as<VkCommandBuffer>(kCommandBuffer);

void barrier(wire::Writer& w) {
  VkMemoryBarrier all{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                      VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  put(w, VkOp::vkCmdPipelineBarrier,
      a::VkArgs_vkCmdPipelineBarrier{kCb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0,
                                     1, &all, 0, nullptr, 0, nullptr});
}

void buffer_transfers(wire::Writer& w) {
  const auto small = as<VkBuffer>(kSmallBuffer), large = as<VkBuffer>(kLargeBuffer);
  const VkBufferCopy copy{0, 1024, kSmallBufferBytes};
  put(w, VkOp::vkCmdCopyBuffer, a::VkArgs_vkCmdCopyBuffer{kCb, small, large, 1, &copy});
  const uint32_t words[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  put(w, VkOp::vkCmdUpdateBuffer, a::VkArgs_vkCmdUpdateBuffer{kCb, small, kSmallBufferBytes - 32, sizeof words, words});
  put(w, VkOp::vkCmdFillBuffer, a::VkArgs_vkCmdFillBuffer{kCb, large, 256, VK_WHOLE_SIZE, 0x01020304});
  barrier(w);
  const VkBufferCopy2 copy2{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 64, 0, 512};
  const VkCopyBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, nullptr, large, small, 1, &copy2};
  put(w, VkOp::vkCmdCopyBuffer2, a::VkArgs_vkCmdCopyBuffer2{kCb, &info});
}

void image_transfers(wire::Writer& w) {
  const auto image = as<VkImage>(kImage);
  const auto large = as<VkBuffer>(kLargeBuffer);
  const VkImageSubresourceRange everything{VK_IMAGE_ASPECT_COLOR_BIT, 0, kImageMips, 0, kImageLayers};
  const VkClearColorValue colour{{0.25f, 0.5f, 0.75f, 1.0f}};
  put(w, VkOp::vkCmdClearColorImage,
      a::VkArgs_vkCmdClearColorImage{kCb, image, VK_IMAGE_LAYOUT_GENERAL, &colour, 1, &everything});
  barrier(w);
  const VkBufferImageCopy upload{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1}, {0, 0, 0}, {32, 32, 1}};
  put(w, VkOp::vkCmdCopyBufferToImage,
      a::VkArgs_vkCmdCopyBufferToImage{kCb, large, image, VK_IMAGE_LAYOUT_GENERAL, 1, &upload});
  barrier(w);
  const VkImageCopy copy{{VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1},
                         {8, 8, 0}, {16, 16, 1}};
  put(w, VkOp::vkCmdCopyImage,
      a::VkArgs_vkCmdCopyImage{kCb, image, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL, 1, &copy});
  const VkImageBlit blit{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                         {{0, 0, 0}, {64, 64, 1}},
                         {VK_IMAGE_ASPECT_COLOR_BIT, 2, 0, 1},
                         {{0, 0, 0}, {16, 16, 1}}};
  put(w, VkOp::vkCmdBlitImage,
      a::VkArgs_vkCmdBlitImage{kCb, image, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL, 1, &blit,
                               VK_FILTER_LINEAR});
  barrier(w);
  const VkBufferImageCopy download{4096, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1}, {0, 0, 0}, {64, 64, 1}};
  put(w, VkOp::vkCmdCopyImageToBuffer,
      a::VkArgs_vkCmdCopyImageToBuffer{kCb, image, VK_IMAGE_LAYOUT_GENERAL, large, 1, &download});
}

void descriptors(wire::Writer& w) {
  const auto set = as<VkDescriptorSet>(kDescriptorSet);
  const VkDescriptorBufferInfo uniform{as<VkBuffer>(kLargeBuffer), 256, 512};
  const VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1,
                                   VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nullptr, &uniform, nullptr};
  const VkCopyDescriptorSet copy{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, set, 2, 0, set, 2, 1, 1};
  put(w, VkOp::vkUpdateDescriptorSets,
      a::VkArgs_vkUpdateDescriptorSets{as<VkDevice>(kDevice), 1, &write, 1, &copy});
}

void bind_set(wire::Writer& w, VkPipelineBindPoint point) {
  const auto set = as<VkDescriptorSet>(kDescriptorSet);
  put(w, VkOp::vkCmdBindDescriptorSets,
      a::VkArgs_vkCmdBindDescriptorSets{kCb, point, as<VkPipelineLayout>(kPipelineLayout), 0, 1, &set, 0, nullptr});
  const uint32_t constants[4] = {1, 2, 3, 4};
  put(w, VkOp::vkCmdPushConstants,
      a::VkArgs_vkCmdPushConstants{kCb, as<VkPipelineLayout>(kPipelineLayout), VK_SHADER_STAGE_ALL, 16,
                                   sizeof constants, constants});
}

void compute(wire::Writer& w) {
  descriptors(w);
  put(w, VkOp::vkCmdBindPipeline,
      a::VkArgs_vkCmdBindPipeline{kCb, VK_PIPELINE_BIND_POINT_COMPUTE, as<VkPipeline>(kComputePipeline)});
  bind_set(w, VK_PIPELINE_BIND_POINT_COMPUTE);
  put(w, VkOp::vkCmdDispatch, a::VkArgs_vkCmdDispatch{kCb, 2, 1, 1});
  put(w, VkOp::vkCmdFillBuffer, a::VkArgs_vkCmdFillBuffer{kCb, as<VkBuffer>(kSmallBuffer), 0, 12, 1});
  barrier(w);
  put(w, VkOp::vkCmdDispatchIndirect, a::VkArgs_vkCmdDispatchIndirect{kCb, as<VkBuffer>(kSmallBuffer), 0});
  put(w, VkOp::vkCmdDispatchBase, a::VkArgs_vkCmdDispatchBase{kCb, 1, 0, 0, 1, 1, 1});
}

void draw(wire::Writer& w) {
  const VkClearValue clear{{{0, 0, 0, 1}}};
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = as<VkRenderPass>(kRenderPass);
  begin.framebuffer = as<VkFramebuffer>(kFramebuffer);
  begin.renderArea = {{0, 0}, {kImageSize, kImageSize}};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  // Indices 0, 1, 2 and an indirect draw's four words in the small buffer.
  const uint32_t indices[3] = {0, 1, 2};
  put(w, VkOp::vkCmdUpdateBuffer, a::VkArgs_vkCmdUpdateBuffer{kCb, as<VkBuffer>(kSmallBuffer), 0, 12, indices});
  const uint32_t indirect[5] = {3, 1, 0, 0, 0};
  put(w, VkOp::vkCmdUpdateBuffer, a::VkArgs_vkCmdUpdateBuffer{kCb, as<VkBuffer>(kSmallBuffer), 64, 20, indirect});
  barrier(w);
  put(w, VkOp::vkCmdBeginRenderPass, a::VkArgs_vkCmdBeginRenderPass{kCb, &begin, VK_SUBPASS_CONTENTS_INLINE});
  put(w, VkOp::vkCmdBindPipeline,
      a::VkArgs_vkCmdBindPipeline{kCb, VK_PIPELINE_BIND_POINT_GRAPHICS, as<VkPipeline>(kGraphicsPipeline)});
  bind_set(w, VK_PIPELINE_BIND_POINT_GRAPHICS);
  const VkViewport viewport{0, 0, kImageSize, kImageSize, 0, 1};
  put(w, VkOp::vkCmdSetViewport, a::VkArgs_vkCmdSetViewport{kCb, 0, 1, &viewport});
  const VkRect2D scissor{{0, 0}, {kImageSize, kImageSize}};
  put(w, VkOp::vkCmdSetScissor, a::VkArgs_vkCmdSetScissor{kCb, 0, 1, &scissor});
  const auto vertices = as<VkBuffer>(kLargeBuffer);
  const VkDeviceSize at = 0;
  put(w, VkOp::vkCmdBindVertexBuffers, a::VkArgs_vkCmdBindVertexBuffers{kCb, 0, 1, &vertices, &at});
  put(w, VkOp::vkCmdBindIndexBuffer,
      a::VkArgs_vkCmdBindIndexBuffer{kCb, as<VkBuffer>(kSmallBuffer), 0, VK_INDEX_TYPE_UINT32});
  put(w, VkOp::vkCmdDraw, a::VkArgs_vkCmdDraw{kCb, 3, 1, 0, 0});
  put(w, VkOp::vkCmdDrawIndexed, a::VkArgs_vkCmdDrawIndexed{kCb, 3, 1, 0, 0, 0});
  put(w, VkOp::vkCmdDrawIndirect, a::VkArgs_vkCmdDrawIndirect{kCb, as<VkBuffer>(kSmallBuffer), 64, 1, 16});
  put(w, VkOp::vkCmdDrawIndexedIndirect,
      a::VkArgs_vkCmdDrawIndexedIndirect{kCb, as<VkBuffer>(kSmallBuffer), 64, 1, 20});
  const VkClearAttachment attachment{VK_IMAGE_ASPECT_COLOR_BIT, 0, clear};
  const VkClearRect rect{{{8, 8}, {16, 16}}, 0, 1};
  put(w, VkOp::vkCmdClearAttachments, a::VkArgs_vkCmdClearAttachments{kCb, 1, &attachment, 1, &rect});
  put(w, VkOp::vkCmdEndRenderPass, a::VkArgs_vkCmdEndRenderPass{kCb});
}

void queries_and_events(wire::Writer& w) {
  const auto pool = as<VkQueryPool>(kQueryPool);
  put(w, VkOp::vkCmdResetQueryPool, a::VkArgs_vkCmdResetQueryPool{kCb, pool, 0, kQueries});
  put(w, VkOp::vkCmdBeginQuery, a::VkArgs_vkCmdBeginQuery{kCb, pool, 3, 0});
  put(w, VkOp::vkCmdEndQuery, a::VkArgs_vkCmdEndQuery{kCb, pool, 3});
  put(w, VkOp::vkCmdCopyQueryPoolResults,
      a::VkArgs_vkCmdCopyQueryPoolResults{kCb, pool, 0, 4, as<VkBuffer>(kSmallBuffer), 128, 8,
                                          VK_QUERY_RESULT_64_BIT});
  const auto event = as<VkEvent>(kEvent);
  put(w, VkOp::vkCmdSetEvent, a::VkArgs_vkCmdSetEvent{kCb, event, VK_PIPELINE_STAGE_TRANSFER_BIT});
  put(w, VkOp::vkCmdWaitEvents,
      a::VkArgs_vkCmdWaitEvents{kCb, 1, &event, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                                nullptr, 0, nullptr, 0, nullptr});
  put(w, VkOp::vkCmdResetEvent, a::VkArgs_vkCmdResetEvent{kCb, event, VK_PIPELINE_STAGE_TRANSFER_BIT});
  put(w, VkOp::vkResetQueryPool, a::VkArgs_vkResetQueryPool{as<VkDevice>(kDevice), pool, 4, 4});
}

void memory(wire::Writer& w) {
  using wire::vk::MemoryOp;
  const std::byte bytes[64] = {};
  size_t at = w.begin(static_cast<uint32_t>(MemoryOp::kWriteMemory));
  w.put(wire::vk::MemoryRange{kMemory, 4096 - 32, sizeof bytes});
  w.put_data(bytes, sizeof bytes);
  w.end(at);
  at = w.begin(static_cast<uint32_t>(MemoryOp::kReadMemory));
  w.put(wire::vk::MemoryRange{kSpareMemory, 0, 4096});
  w.end(at);
  VkMemoryRequirements need{};
  put(w, VkOp::vkGetBufferMemoryRequirements,
      a::VkArgs_vkGetBufferMemoryRequirements{as<VkDevice>(kDevice), as<VkBuffer>(kBareBuffer), &need});
  put(w, VkOp::vkBindBufferMemory,
      a::VkArgs_vkBindBufferMemory{as<VkDevice>(kDevice), as<VkBuffer>(kBareBuffer), as<VkDeviceMemory>(kSpareMemory),
                                   0});
}

// A crash input, written rather than found: a program of Vulkan 1.1 calls
// 1.3's vkGetDeviceBufferMemoryRequirements (as it may by
// VK_KHR_maintenance4's name) on a device of its own instance. The host
// made that instance at 1.1, lavapipe gave its device no entry point for
// the command, and the loader called through null (the renderer's SEGV);
// the host's instances are made at the newest version now, and it runs.
void newer_core_command_of_an_older_instance(wire::Writer& w) {
  constexpr uint64_t kOldInstance = kFirstPreludeId + 0x1000, kOldDevice = kOldInstance + 1;
  // The host names the physical devices of an instance in the order
  // enumerated, after the prelude's.
  constexpr uint64_t kOldGpu = kPhysicalDevice + 1;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instance{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance.pApplicationInfo = &app;
  VkInstance made_instance{};
  put(w, VkOp::vkCreateInstance, a::VkArgs_vkCreateInstance{&instance, nullptr, &made_instance}, {kOldInstance});
  uint32_t gpus = 1;
  VkPhysicalDevice gpu{};
  put(w, VkOp::vkEnumeratePhysicalDevices,
      a::VkArgs_vkEnumeratePhysicalDevices{as<VkInstance>(kOldInstance), &gpus, &gpu});
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  const char* const maintenance4 = VK_KHR_MAINTENANCE_4_EXTENSION_NAME;
  VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device.queueCreateInfoCount = 1;
  device.pQueueCreateInfos = &queue;
  device.enabledExtensionCount = 1;
  device.ppEnabledExtensionNames = &maintenance4;
  VkDevice made_device{};
  put(w, VkOp::vkCreateDevice, a::VkArgs_vkCreateDevice{as<VkPhysicalDevice>(kOldGpu), &device, nullptr, &made_device},
      {kOldDevice});
  VkBufferCreateInfo buffer{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer.size = 1000;
  buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  const VkDeviceBufferMemoryRequirements info{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS, nullptr, &buffer};
  VkMemoryRequirements2 need{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
  put(w, VkOp::vkGetDeviceBufferMemoryRequirements,
      a::VkArgs_vkGetDeviceBufferMemoryRequirements{as<VkDevice>(kOldDevice), &info, &need});
}

struct Seed {
  const char* name;
  std::function<void(wire::Writer&)> write;
};

const Seed kSeeds[] = {
    {"buffer-transfers", buffer_transfers}, {"image-transfers", image_transfers}, {"descriptors", descriptors},
    {"compute", compute},                   {"draw", draw},                       {"queries-and-events", queries_and_events},
    {"mapped-memory", memory},
};

// Written into the crash inputs' directory (seeds/vk-session-crashes).
const Seed kCrashes[] = {
    {"newer-core-command-of-an-older-instance", newer_core_command_of_an_older_instance},
};

bool write_seeds(std::span<const Seed> seeds, const std::string& dir) {
  for (const Seed& seed : seeds) {
    wire::Writer w;
    seed.write(w);
    const std::string path = dir + "/" + seed.name + ".bin";
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(w.bytes().data()), static_cast<std::streamsize>(w.bytes().size()));
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s DIR [CRASHES_DIR]\n", argv[0]);
    return 2;
  }
  if (!write_seeds(kSeeds, argv[1])) return 1;
  if (argc == 3 && !write_seeds(kCrashes, argv[2])) return 1;
  return 0;
}
