// Device memory a guest's Vulkan exported as an opaque fd, which its GL
// imports (GL_EXT_memory_object_fd): both run in the guest's renderer, so
// the driver's fd passes from one handler to the other and never reaches
// the guest.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace host {

// Takes export `number` of the session's Vulkan when it holds at least
// `bytes`: the driver's fd, now the taker's; none, and the export stays,
// otherwise.
using TakeExport = std::function<std::optional<int>(uint32_t number, uint64_t bytes)>;

}  // namespace host
