// The host driver's entry points and one call per generated command.
#pragma once

#include <cstdint>

#include "vk_host_dispatch.h"

namespace host::vk {

// Calls the driver with a decoded argument record; the command's return
// value as 64 bits (0 for void).
using HostCall = uint64_t (*)(const HostDispatch& dispatch, void* args);

// Null for commands that are not generated (guest-only).
HostCall host_call(uint32_t opcode);

}  // namespace host::vk
