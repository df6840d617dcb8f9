// Vulkan commands a hostile guest would send, written from the generated
// Vulkan model (wire/vk_codec.h's CommandDesc and StructDesc tables): every
// structure well formed (sTypes, counts that match their arrays, pNext
// chains the codec carries), so the decoder passes them, but their values at
// the edges: offsets, sizes, indices and counts of 0, 1, -1, 2^31, 2^32-1 and
// huge, or just past the prelude's objects; handles mostly of the prelude's
// objects of the right type (vk_prelude.h), sometimes of another type, null
// or never made.
#pragma once

#include "command_stream.h"
#include "hostile.h"

namespace fuzz::vk {

// A command of the model, every value chosen as above.
Command hostile_vk_command(Rng& rng);
// One value (a scalar or a handle, anywhere in the command's structures)
// of a Vulkan command changed as above, the rest kept; false when the
// command does not decode by the model.
bool change_vk_argument(Command& c, Rng& rng);
// Conduit's WriteMemory or ReadMemory (wire/vk_memory.h) of a prelude
// allocation, its range at the edges.
Command hostile_memory_command(Rng& rng);

}  // namespace fuzz::vk
