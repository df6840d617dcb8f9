// libFuzzer's custom mutator for command streams: edits whole commands and
// single arguments by the generated model, so that most inputs stay valid
// framing and valid commands whose values are hostile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "command_stream.h"
#include "hostile.h"

namespace fuzz {

// Edits both stream mutators share: a command put at a random place, and
// libFuzzer's byte mutator run over one command's payload.
void insert_at_random(std::vector<Command>& cmds, Command c, Rng& rng);
void mutate_bytes(Command& c);

size_t mutate_stream(uint8_t* data, size_t size, size_t max_size, unsigned seed);
size_t cross_over_streams(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size, uint8_t* out,
                          size_t max_size, unsigned seed);

}  // namespace fuzz
