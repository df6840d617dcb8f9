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

// The hand-written entry points of each file, found before the generated ones.
extern const std::vector<NamedEntry> kMemoryEntries;               // memory.cpp
extern const std::vector<NamedEntry> kMemoryFdsEntries;            // memory_fds.cpp
extern const std::vector<NamedEntry> kGpuWritesEntries;            // gpu_writes.cpp
extern const std::vector<NamedEntry> kFencesEntries;               // fences.cpp
extern const std::vector<NamedEntry> kQueuesEntries;               // queues.cpp
extern const std::vector<NamedEntry> kDescriptorTemplatesEntries;  // descriptor_templates.cpp
extern const std::vector<NamedEntry> kWsiEntries;                  // wsi.cpp
extern const std::vector<NamedEntry> kSwapchainEntries;            // swapchain.cpp

}  // namespace icd::vk
