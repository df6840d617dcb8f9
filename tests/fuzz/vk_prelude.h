// The Vulkan objects every input of the Vulkan session target can name: a
// fixed prelude makes them before the input runs (an instance, a device and
// its queue, buffers and an image with memory, a descriptor set with its
// layout and pool, compute and graphics pipelines, a render pass with a
// framebuffer, a command buffer already recording, a fence, a semaphore, an
// event and a query pool), and an epilogue submits the command buffer and
// waits for it, so that what the input recorded runs in the driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "wire/vk_codec.h"
#include "wire/vk_commands.h"
#include "wire/writer.h"

namespace fuzz::vk {

// Ids far above those a recorded program's guest library chooses (from 1),
// so a recorded seed's objects and the prelude's never collide.
constexpr uint64_t kFirstPreludeId = 0x100000;
// The prelude's objects.
enum : uint64_t {
  kInstance = kFirstPreludeId,
  kDevice,
  kQueue,
  kMemory,       // 1 MiB: both buffers and the image live in it
  kSpareMemory,  // 4 KiB, bound to nothing
  kSmallBuffer,
  kLargeBuffer,
  kBareBuffer,   // no memory
  kImage,
  kImageView,
  kBufferView,
  kSampler,
  kSetLayout,
  kPipelineLayout,
  kDescriptorPool,
  kDescriptorSet,
  kComputeShader,
  kComputePipeline,
  kVertexShader,
  kFragmentShader,
  kRenderPass,
  kFramebuffer,
  kGraphicsPipeline,
  kCommandPool,
  kCommandBuffer,
  kSecondaryBuffer,
  kFence,
  kSemaphore,
  kEvent,
  kQueryPool,
};

// The host names physical devices itself, from its first id on
// (host::vk::HandleTable::kHostChosen | 1): the prelude's is the first.
constexpr uint64_t kPhysicalDevice = (uint64_t{1} << 63) | 1;

// Sizes the mutator aims its ranges at.
constexpr uint64_t kSmallBufferBytes = 4096;
constexpr uint64_t kLargeBufferBytes = 65536;
constexpr uint32_t kImageSize = 64;
constexpr uint32_t kImageMips = 4;
constexpr uint32_t kImageLayers = 2;
constexpr uint32_t kQueries = 8;
constexpr uint32_t kPushConstantBytes = 128;

struct PreludeObject {
  VkObjectType type;
  uint64_t id;
};

// Every object the prelude makes, in the order it makes them.
std::span<const PreludeObject> prelude_objects();
// The prelude's Vulkan commands, and the epilogue's.
std::vector<std::byte> prelude_commands();
std::vector<std::byte> epilogue_commands();

// Guest-side ids as the codec wants them: a handle is its id; new objects
// get the ids given, in order, then ids from `next`.
class WireIds final : public wire::vk::GuestHandles {
 public:
  explicit WireIds(std::span<const uint64_t> made = {}, uint64_t next = 0) : made_(made), next_(next) {}
  uint64_t to_wire(VkObjectType, bool, uint64_t handle) override { return handle; }
  wire::Result<uint64_t> from_wire(VkObjectType, bool, uint64_t id) override { return id; }
  uint64_t create(VkObjectType, bool) override { return taken_ < made_.size() ? made_[taken_++] : next_++; }
  void discard(VkObjectType, bool, uint64_t) override {}

 private:
  std::span<const uint64_t> made_;
  size_t taken_ = 0;
  uint64_t next_;
};

// Frames one command from its argument record (wire::vk::VkArgs_*), new
// objects named by `made`.
void put_command(wire::Writer& w, uint32_t opcode, const void* args, std::initializer_list<uint64_t> made = {});

template <typename Args>
void put(wire::Writer& w, wire::vk::VkOp op, const Args& args, std::initializer_list<uint64_t> made = {}) {
  put_command(w, static_cast<uint32_t>(op), &args, made);
}

// A driver handle type from an id: how argument records hold them.
template <typename T>
T as(uint64_t id) {
  return reinterpret_cast<T>(id);
}

}  // namespace fuzz::vk
