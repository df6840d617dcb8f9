// Decodes one GL command of any opcode (generated), for truncation and fuzzing.
#pragma once

#include <cstdint>

#include "wire/reader.h"

wire::Status decode_any(uint32_t opcode, wire::Reader& r);
