// Every Vulkan call's result is checked: a benchmark that carries on after a
// failure measures nothing, so the first failure names the call and exits.
#pragma once

#include <vulkan/vulkan.h>

namespace vkbench {

const char* result_name(VkResult result);

// Exits with status 1 naming `call` unless `result` is VK_SUCCESS.
void check(VkResult result, const char* call);

// Prints "conduit-vkbench: <message>" and exits with status 1.
[[noreturn]] void fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace vkbench
