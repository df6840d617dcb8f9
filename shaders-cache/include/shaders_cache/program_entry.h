// What the cache keeps of a linked GL program and of a compiled shader.
// A program: the driver's binary (glGetProgramBinary) and what guests ask
// after linking (its info log, active attributes, uniforms and uniform
// blocks with their locations), which the host compares with what the
// driver reports after glProgramBinary before trusting the binary. A
// shader: its compile status and info log, so that a shader whose program
// will come from the cache need not be compiled.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shaders_cache {

struct ActiveVariable {
  std::string name;
  uint32_t type = 0;
  uint32_t size = 0;
  int32_t location = -1;  // attribute or uniform location; a block's binding index for blocks
  bool operator==(const ActiveVariable&) const = default;
};

struct Reflection {
  std::vector<ActiveVariable> attributes, uniforms, blocks;
  bool operator==(const Reflection&) const = default;
};

struct ProgramEntry {
  uint32_t binary_format = 0;
  std::vector<std::byte> binary;
  std::string info_log;
  Reflection reflection;
};

struct ShaderEntry {
  bool compiled = false;
  std::string info_log;
};

std::vector<std::byte> encode(const ProgramEntry& e);
std::vector<std::byte> encode(const ShaderEntry& e);
// None when `bytes` is not a whole entry of that kind.
std::optional<ProgramEntry> decode_program(std::span<const std::byte> bytes);
std::optional<ShaderEntry> decode_shader(std::span<const std::byte> bytes);

}  // namespace shaders_cache
