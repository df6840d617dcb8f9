// The generated command model the structure-aware fuzzers build commands
// from (wire-protocol/gen/emit_fuzz.py writes its tables).
#pragma once

#include <cstdint>
#include <span>

namespace fuzz {

// What an argument is, so that a mutation picks values that mean something to
// the host: an enum of the argument's gl.xml group, an object name, a count.
enum class ArgKind : uint8_t {
  kInt,     // any other integer
  kFloat,   // GLfloat, GLdouble and their clamped forms
  kEnum,    // GLenum or GLbitfield with a known group of values
  kName,    // a guest object name
  kCount,   // GLsizei, GLsizeiptr
  kString,  // NUL-terminated text (Data)
  kData,    // array in client memory (Data)
  kPixels,  // array that may also be an offset into the bound unpack buffer
};

inline bool is_data(ArgKind k) { return k == ArgKind::kString || k == ArgKind::kData || k == ArgKind::kPixels; }

struct ArgSpec {
  ArgKind kind;
  uint8_t bytes;  // scalar size on the wire, or an array's element size
  uint32_t enum_first;
  uint32_t enum_count;
};

struct CommandSpec {
  uint32_t opcode;
  const char* name;
  uint32_t first_arg;
  uint32_t arg_count;
};

std::span<const CommandSpec> gl_commands();
std::span<const ArgSpec> args_of(const CommandSpec& c);
std::span<const uint32_t> enum_values(const ArgSpec& a);

}  // namespace fuzz
