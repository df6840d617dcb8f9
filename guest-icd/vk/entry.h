// The guest Vulkan ICD's entry points: generated ones (vk_guest_entry.cpp)
// hand their argument record to run_command; hand-written ones live beside.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include <vulkan/vulkan.h>

#include "entry_table.h"
#include "wire/vk_commands.h"

namespace icd {
class Connection;
}

namespace icd::vk {

// Sends one command in call order with every other thread's; waits for the
// host only when the command returns something. The command's return value
// (VK_ERROR_DEVICE_LOST once the host lost this guest's Vulkan or is gone).
uint64_t run_command(const wire::vk::CommandDesc& cmd, void* args);
// The same for a command recorded into a command buffer that returns
// nothing and makes or ends no object: straight into the buffer, with none
// of the steps of a reply (most of a frame's commands).
void run_recorded(const wire::vk::CommandDesc& cmd, const void* args);

// What writes into a batch, borrowed for one call: nothing is copied or
// allocated for it, once for every command a program records.
class WriteFn {
 public:
  template <typename F>
    requires(std::is_invocable_v<F&, wire::Writer&> && !std::is_same_v<std::remove_cvref_t<F>, WriteFn>)
  WriteFn(F&& f)  // NOLINT: converts any callable, as std::function would
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, wire::Writer& w) { (*static_cast<std::remove_reference_t<F>*>(o))(w); }) {}
  void operator()(wire::Writer& w) const { call_(object_, w); }

 private:
  void* object_;
  void (*call_)(void*, wire::Writer&);
};

// Conduit's own commands, in the same order as the program's: `fill`
// writes one command's payload.
void send_async(uint32_t opcode, WriteFn fill);

// Sends what waits in the buffer now, without waiting for anything.
void send_commands_now();

// The connection this program's Vulkan runs on; null once the host lost it.
std::shared_ptr<Connection> vulkan_connection();

// Host memory read into `out` in the same batch as a command: after a wait,
// what the GPU wrote comes back without another round trip.
struct MemoryRead {
  uint64_t memory;  // the VkDeviceMemory's id
  uint64_t size;    // from offset 0
  std::byte* out;
};
// Sends what waits with the commands `write` adds (whole commands) and
// returns the host's reply to them all.
wire::Result<std::vector<std::byte>> send_sync(WriteFn write);
void write_memory_read(wire::Writer& w, uint64_t memory, uint64_t size);
bool take_memory_read(wire::Reader& r, uint64_t size, std::byte* out);

// Runs `cmd` (synchronous ones only read); `*read` says whether every read came back.
uint64_t run_command_then_read(const wire::vk::CommandDesc& cmd, void* args, std::span<const MemoryRead> reads,
                               bool* read);
// The same, but a synchronous command's wait ends once `enough()` holds
// (after any message from the host); then nullopt, and its reply is dropped.
std::optional<uint64_t> run_command_unless(const wire::vk::CommandDesc& cmd, void* args,
                                           std::span<const MemoryRead> reads, bool* read,
                                           const std::function<bool()>& enough);

// The generated command a hand-written entry point wraps.
template <typename Args>
uint64_t run_generated(wire::vk::VkOp op, Args& args) {
  static const wire::vk::CommandDesc& desc = *wire::vk::command_desc(static_cast<uint32_t>(op));
  return run_command(desc, &args);
}
inline VkResult as_result(uint64_t v) { return static_cast<VkResult>(static_cast<int64_t>(v)); }
template <typename Args>
VkResult run_then_read(wire::vk::VkOp op, Args& args, std::span<const MemoryRead> reads, bool* read) {
  static const wire::vk::CommandDesc& desc = *wire::vk::command_desc(static_cast<uint32_t>(op));
  return as_result(run_command_then_read(desc, &args, reads, read));
}

PFN_vkVoidFunction generated_entry(const char* name);
// Any of the ICD's entry points by name, as the loader finds them.
PFN_vkVoidFunction icd_lookup(const char* name);

// The hand-written entry points, found before the generated ones (icd.cpp
// lists them). Each is declared with the type of the command it implements,
// so that a table entry cannot pair a name with a function of another
// signature; surfaces and swapchains are in wsi.h.
template <typename Pfn>
using EntryPoint = std::remove_pointer_t<Pfn>;

// memory.cpp
EntryPoint<PFN_vkCreateDevice> create_device;
EntryPoint<PFN_vkCreateImage> create_image;
EntryPoint<PFN_vkAllocateMemory> allocate_memory;
EntryPoint<PFN_vkFreeMemory> free_memory;
EntryPoint<PFN_vkMapMemory> map_memory;
EntryPoint<PFN_vkUnmapMemory> unmap_memory;
EntryPoint<PFN_vkFlushMappedMemoryRanges> flush_ranges;
EntryPoint<PFN_vkInvalidateMappedMemoryRanges> invalidate_ranges;
EntryPoint<PFN_vkQueueSubmit> queue_submit;
EntryPoint<PFN_vkQueueSubmit2> queue_submit2;
EntryPoint<PFN_vkWaitForFences> wait_for_fences;
EntryPoint<PFN_vkGetFenceStatus> get_fence_status;
EntryPoint<PFN_vkQueueWaitIdle> queue_wait_idle;
EntryPoint<PFN_vkDeviceWaitIdle> device_wait_idle;
EntryPoint<PFN_vkWaitSemaphores> wait_semaphores;
EntryPoint<PFN_vkGetQueryPoolResults> get_query_pool_results;
// memory_fds.cpp
EntryPoint<PFN_vkGetMemoryFdKHR> get_memory_fd;
EntryPoint<PFN_vkGetMemoryFdPropertiesKHR> get_memory_fd_properties;
// gpu_writes.cpp
EntryPoint<PFN_vkCreateBuffer> create_buffer;
EntryPoint<PFN_vkDestroyBuffer> destroy_buffer;
EntryPoint<PFN_vkBindBufferMemory> bind_buffer_memory;
EntryPoint<PFN_vkBindBufferMemory2> bind_buffer_memory2;
EntryPoint<PFN_vkBindImageMemory> bind_image_memory;
EntryPoint<PFN_vkBindImageMemory2> bind_image_memory2;
EntryPoint<PFN_vkQueueBindSparse> queue_bind_sparse;
// fences.cpp
EntryPoint<PFN_vkCreateFence> create_fence;
EntryPoint<PFN_vkDestroyFence> destroy_fence;
EntryPoint<PFN_vkResetFences> reset_fences;
// queues.cpp
EntryPoint<PFN_vkGetDeviceQueue> get_device_queue;
EntryPoint<PFN_vkGetDeviceQueue2> get_device_queue2;
// descriptor_templates.cpp
EntryPoint<PFN_vkCreateDescriptorUpdateTemplate> create_template;
EntryPoint<PFN_vkDestroyDescriptorUpdateTemplate> destroy_template;
EntryPoint<PFN_vkUpdateDescriptorSetWithTemplate> update_with_template;
EntryPoint<PFN_vkCmdPushDescriptorSetWithTemplateKHR> push_with_template;

}  // namespace icd::vk
