// A batch's commands as a list the mutators can edit, and the arguments of a
// GL command as the generated model lays them out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fuzz_model.h"
#include "wire/format.h"
#include "wire/writer.h"

namespace fuzz {

struct Command {
  uint32_t opcode;
  std::vector<std::byte> payload;  // without the CommandHeader
};

// The commands of `bytes` up to the first one whose header does not fit.
std::vector<Command> split_commands(std::span<const uint8_t> bytes);
// Frames `commands` into `out` (at most `max` bytes); returns the size used.
// Commands that do not fit are left out.
size_t join_commands(const std::vector<Command>& commands, uint8_t* out, size_t max);

// One decoded argument. Data arguments keep their kind, so a hostile guest's
// heap and buffer-offset references survive a round through the mutator.
struct Arg {
  uint64_t scalar = 0;  // scalars: the value's bytes, zero-extended
  wire::DataKind kind = wire::DataKind::kNull;
  uint64_t offset = 0;  // kHeap, kBufferOffset
  uint32_t heap_length = 0;
  std::vector<std::byte> bytes;  // kInline
};

const CommandSpec* find_command(uint32_t opcode);
// The arguments of `payload` by the command's layout; nullopt when it does not
// follow the layout (then only byte-level mutation applies).
std::optional<std::vector<Arg>> parse_args(const CommandSpec& spec, std::span<const std::byte> payload);
Command encode_command(const CommandSpec& spec, const std::vector<Arg>& args);

}  // namespace fuzz
