// What the host must know of a GL command: generated from the [facts] of
// wire-protocol/annotations.toml, so the lists live beside the commands'
// other annotations.
#pragma once

#include <cstdint>

#include "wire/gl_opcodes.h"

namespace host {

// Whether `fact` holds for the command; false for what is no GL command.
inline bool has_fact(uint32_t opcode, wire::GlFact fact) {
  const wire::GlCommandInfo* info = wire::gl_command_info(opcode);
  return info != nullptr && (info->facts & fact) != 0;
}

// What the command reads of the vertex arrays when it draws.
inline wire::GlDraw draw_kind(uint32_t opcode) {
  const wire::GlCommandInfo* info = wire::gl_command_info(opcode);
  return info != nullptr ? info->draw : wire::GlDraw::kNone;
}

}  // namespace host
