#include "shaders_cache/program_entry.h"

#include "shaders_cache/byte_codec.h"

namespace shaders_cache {
namespace {

// Tells the two kinds apart, and a later layout from this one.
constexpr uint32_t kProgramTag = 0x31475250;  // "PRG1"
constexpr uint32_t kShaderTag = 0x31444853;   // "SHD1"
constexpr size_t kMinVariableBytes = 16;

void put(ByteWriter& w, const std::vector<ActiveVariable>& list) {
  w.u32(static_cast<uint32_t>(list.size()));
  for (const auto& v : list) {
    w.text(v.name);
    w.u32(v.type);
    w.u32(v.size);
    w.u32(static_cast<uint32_t>(v.location));
  }
}

std::vector<ActiveVariable> take(ByteReader& r) {
  std::vector<ActiveVariable> list(r.count(kMinVariableBytes));
  for (auto& v : list) {
    v.name = r.text();
    v.type = r.u32();
    v.size = r.u32();
    v.location = static_cast<int32_t>(r.u32());
  }
  return list;
}

}  // namespace

std::vector<std::byte> encode(const ProgramEntry& e) {
  ByteWriter w;
  w.u32(kProgramTag);
  w.u32(e.binary_format);
  w.bytes(e.binary);
  w.text(e.info_log);
  put(w, e.reflection.attributes);
  put(w, e.reflection.uniforms);
  put(w, e.reflection.blocks);
  return std::move(w.out());
}

std::vector<std::byte> encode(const ShaderEntry& e) {
  ByteWriter w;
  w.u32(kShaderTag);
  w.u32(e.compiled ? 1 : 0);
  w.text(e.info_log);
  return std::move(w.out());
}

std::optional<ProgramEntry> decode_program(std::span<const std::byte> bytes) {
  ByteReader r(bytes);
  if (r.u32() != kProgramTag) return std::nullopt;
  ProgramEntry e;
  e.binary_format = r.u32();
  e.binary = r.bytes();
  e.info_log = r.text();
  e.reflection.attributes = take(r);
  e.reflection.uniforms = take(r);
  e.reflection.blocks = take(r);
  if (!r.at_end() || e.binary.empty()) return std::nullopt;
  return e;
}

std::optional<ShaderEntry> decode_shader(std::span<const std::byte> bytes) {
  ByteReader r(bytes);
  if (r.u32() != kShaderTag) return std::nullopt;
  ShaderEntry e;
  const uint32_t compiled = r.u32();
  e.info_log = r.text();
  if (!r.at_end() || compiled > 1) return std::nullopt;
  e.compiled = compiled == 1;
  return e;
}

}  // namespace shaders_cache
