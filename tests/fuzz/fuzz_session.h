// A guest's command stream run by a real host session on the host's own EGL
// display, as the session fuzz target and the replay test run it.
#pragma once

#include <cstdint>
#include <span>

namespace fuzz {

struct StreamOutcome {
  uint64_t commands = 0;       // commands the session ran, prelude included
  uint64_t contexts_lost = 0;  // contexts (or the context-less stream) lost
};

// Opens the display the sessions share (once per process: the costly part).
void open_shared_host();

// One batch of `commands` after the prelude (see fuzz_session.cpp); the
// session is destroyed before this returns.
StreamOutcome run_stream(std::span<const uint8_t> commands);

// One batch of Vulkan `commands` after the Vulkan prelude, then its
// epilogue (vk_prelude.h); the session is destroyed before this returns.
StreamOutcome run_vk_stream(std::span<const uint8_t> commands);

}  // namespace fuzz
