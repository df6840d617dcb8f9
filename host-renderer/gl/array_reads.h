// Drivers read vertex arrays on the CPU, without looking at buffer sizes,
// for glArrayElement and for draws compiled into a display list (Mesa
// does): a guest could make them read host memory far past a small buffer.
// Before such a command the host checks that every enabled array's buffer
// holds the vertices it will read.
#pragma once

#include <cstdint>

#include "gl/context_impl.h"
#include "wire/reader.h"
#include "wire/result.h"

namespace host {

// Whether command `opcode` (its arguments in `payload`) may run: false when
// it would read an array past the end of its buffer, or reads arrays in a
// way the host cannot check. Only contexts with display lists (compatibility
// profiles) ever answer false.
wire::Result<bool> array_reads_fit(GlContextState::Impl& st, uint32_t opcode, wire::Reader payload);

}  // namespace host
