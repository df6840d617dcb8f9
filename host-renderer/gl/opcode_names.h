// Per-opcode facts drawn from command names, in one place: a table built
// once from the GL command list, then one lookup per command.
#pragma once

#include <cstdint>
#include <regex>
#include <vector>

namespace host {

// One flag per GL opcode: whether its command's name matches `names`.
std::vector<bool> gl_opcodes_named(const std::regex& names);
// The flag of `opcode` in such a table; `outside` for opcodes it lacks
// (control commands, opcodes past the GL list).
bool opcode_flag(const std::vector<bool>& table, uint32_t opcode, bool outside = false);

}  // namespace host
