// The guest Vulkan ICD's entry points: generated ones (vk_guest_entry.cpp)
// hand their argument record to run_command; hand-written ones live beside.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "wire/vk_commands.h"

namespace icd::vk {

// Sends one command in call order with every other thread's; waits for the
// host only when the command returns something. The command's return value
// (VK_ERROR_DEVICE_LOST once the host lost this guest's Vulkan or is gone).
uint64_t run_command(const wire::vk::CommandDesc& cmd, void* args);

// Sends what waits in the buffer (asynchronous commands) now.
void flush_commands();

// Whether the host still runs this program's Vulkan.
bool vulkan_usable();

// Conduit's own commands, in the same order as the program's: `fill`
// writes the payload. send_sync returns the host's reply.
void send_async(uint32_t opcode, const std::function<void(wire::Writer&)>& fill);
wire::Result<std::vector<std::byte>> send_sync(uint32_t opcode, const std::function<void(wire::Writer&)>& fill);

// The generated command a hand-written entry point wraps.
template <typename Args>
uint64_t run_generated(wire::vk::VkOp op, Args& args) {
  static const wire::vk::CommandDesc& desc = *wire::vk::command_desc(static_cast<uint32_t>(op));
  return run_command(desc, &args);
}
inline VkResult as_result(uint64_t v) { return static_cast<VkResult>(static_cast<int64_t>(v)); }

PFN_vkVoidFunction generated_entry(const char* name);
// Any of the ICD's entry points by name, as the loader finds them.
PFN_vkVoidFunction icd_lookup(const char* name);

// A table of hand-written entry points, searched by name.
struct NamedEntry {
  const char* name;
  PFN_vkVoidFunction fn;
};
PFN_vkVoidFunction find_entry(std::span<const NamedEntry> table, const char* name);
template <typename F>
PFN_vkVoidFunction entry_fn(F f) {
  return reinterpret_cast<PFN_vkVoidFunction>(f);
}
PFN_vkVoidFunction handwritten_entry(const char* name);
PFN_vkVoidFunction memory_entry(const char* name);  // memory.cpp

}  // namespace icd::vk
