// libFuzzer's custom mutator for the Vulkan session target: inserts
// commands written from the generated Vulkan model, changes single values
// of the commands an input holds, and edits the list of commands, so that
// most inputs stay commands the host decodes and then checks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "stream_mutator.h"

namespace fuzz {

size_t mutate_vk_stream(uint8_t* data, size_t size, size_t max_size, unsigned seed);

}  // namespace fuzz
