// How much work one draw may ask of the GPU. A draw of billions of vertices
// is a few bytes on the wire and minutes of a software rasterizer's time, so
// the vertices one draw processes (instances included) are bounded by the
// guest's limits like the memory it allocates.
#pragma once

#include <cstdint>

#include "wire/reader.h"
#include "wire/result.h"

namespace host {

// Whether command `opcode` (its arguments in `payload`) processes at most
// `max_vertices` vertices. Draws whose counts live in a buffer (indirect
// draws) are not bounded here.
wire::Result<bool> draw_within_limit(uint64_t max_vertices, uint32_t opcode, wire::Reader payload);

}  // namespace host
