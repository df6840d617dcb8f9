// What a link leaves in a GL program that the guest answers queries with
// (docs/wire-format.md, kProgramReflection): the host encodes it after each
// link, the guest decodes it into its cache of the share group's programs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace wire {

// An active attribute or uniform, as glGetActiveAttrib / glGetActiveUniform
// report it, with the location GL gives its name.
struct ReflectedVariable {
  std::string name;
  uint32_t type = 0;
  int32_t size = 0;
  int32_t location = -1;
  // An array whose element k the host found at `location + k`, for every k.
  bool elements_follow = false;
  bool operator==(const ReflectedVariable&) const = default;
};

struct ProgramReflection {
  // glGetProgramiv's answers, by pname: the link status and log length
  // always, the active counts and name lengths after a successful link.
  std::vector<std::pair<uint32_t, int32_t>> values;
  std::optional<std::string> info_log;  // none: longer than kMaxReflectedLog
  // The lists below are the program's whole interface; false after a
  // failed link, or when they would pass kMaxReflectionBytes.
  bool interface_known = false;
  std::vector<ReflectedVariable> attributes, uniforms;
  std::vector<std::string> blocks;  // uniform block names by index
  bool operator==(const ProgramReflection&) const = default;
};

// Bounds on what one link sends, so a program with thousands of uniforms
// costs the guest round trips, not a flood.
inline constexpr size_t kMaxReflectedLog = 16 * 1024;
inline constexpr size_t kMaxReflectionBytes = 64 * 1024;

// The bytes of `r`; past kMaxReflectionBytes, those of `r` without its
// interface (interface_known false).
std::vector<std::byte> encode_reflection(const ProgramReflection& r);
// None when `bytes` are not a whole reflection.
std::optional<ProgramReflection> decode_reflection(std::span<const std::byte> bytes);

}  // namespace wire
