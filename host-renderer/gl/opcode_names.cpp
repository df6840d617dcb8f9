#include "gl/opcode_names.h"

#include "wire/format.h"
#include "wire/gl_opcodes.h"

namespace host {

std::vector<bool> gl_opcodes_named(const std::regex& names) {
  std::vector<bool> out;
  for (uint32_t op = wire::kFirstGlOpcode;; ++op) {
    const wire::GlCommandInfo* info = wire::gl_command_info(op);
    if (info == nullptr) break;
    out.push_back(std::regex_match(info->name, names));
  }
  return out;
}

bool opcode_flag(const std::vector<bool>& table, uint32_t opcode, bool outside) {
  if (opcode < wire::kFirstGlOpcode || opcode - wire::kFirstGlOpcode >= table.size()) return outside;
  return table[opcode - wire::kFirstGlOpcode];
}

}  // namespace host
