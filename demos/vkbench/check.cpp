#include "check.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace vkbench {

const char* result_name(VkResult result) {
  switch (result) {
#define VKBENCH_NAME(r) \
  case r:               \
    return #r;
    VKBENCH_NAME(VK_SUCCESS)
    VKBENCH_NAME(VK_NOT_READY)
    VKBENCH_NAME(VK_TIMEOUT)
    VKBENCH_NAME(VK_EVENT_SET)
    VKBENCH_NAME(VK_EVENT_RESET)
    VKBENCH_NAME(VK_INCOMPLETE)
    VKBENCH_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    VKBENCH_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VKBENCH_NAME(VK_ERROR_INITIALIZATION_FAILED)
    VKBENCH_NAME(VK_ERROR_DEVICE_LOST)
    VKBENCH_NAME(VK_ERROR_MEMORY_MAP_FAILED)
    VKBENCH_NAME(VK_ERROR_LAYER_NOT_PRESENT)
    VKBENCH_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    VKBENCH_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    VKBENCH_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    VKBENCH_NAME(VK_ERROR_TOO_MANY_OBJECTS)
    VKBENCH_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VKBENCH_NAME(VK_ERROR_FRAGMENTED_POOL)
    VKBENCH_NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    VKBENCH_NAME(VK_ERROR_SURFACE_LOST_KHR)
    VKBENCH_NAME(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    VKBENCH_NAME(VK_SUBOPTIMAL_KHR)
    VKBENCH_NAME(VK_ERROR_OUT_OF_DATE_KHR)
#undef VKBENCH_NAME
    default:
      return "unknown VkResult";
  }
}

void check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) fail("%s failed: %s (%d)", call, result_name(result), result);
}

void fail(const char* format, ...) {
  std::fflush(stdout);
  std::fputs("conduit-vkbench: ", stderr);
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::exit(1);
}

}  // namespace vkbench
