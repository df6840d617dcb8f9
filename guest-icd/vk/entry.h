// The guest Vulkan ICD's entry points: generated ones (vk_guest_entry.cpp)
// hand their argument record to run_command; hand-written ones live beside.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "wire/vk_codec.h"

namespace icd::vk {

// Sends one command in call order with every other thread's; waits for the
// host only when the command returns something. The command's return value
// (VK_ERROR_DEVICE_LOST once the host lost this guest's Vulkan or is gone).
uint64_t run_command(const wire::vk::CommandDesc& cmd, void* args);

// Sends what waits in the buffer (asynchronous commands) now.
void flush_commands();

PFN_vkVoidFunction generated_entry(const char* name);
PFN_vkVoidFunction handwritten_entry(const char* name);

}  // namespace icd::vk
