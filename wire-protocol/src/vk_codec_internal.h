// What the Vulkan codec's two files share: vk_codec.cpp walks a command's
// description, vk_flat.cpp reads and writes its leading values and handles
// (most of a frame's commands are nothing else).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "wire/vk_codec.h"

namespace wire::vk::internal {

constexpr uint64_t kHandleBytes = 8;

inline std::byte* at(void* base, uint32_t offset) { return static_cast<std::byte*>(base) + offset; }
inline const std::byte* at(const void* base, uint32_t offset) { return static_cast<const std::byte*>(base) + offset; }
template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
// By sizes known when compiled: a call to memcpy costs more than the value.
inline void copy_scalar(std::byte* dst, const std::byte* src, uint32_t size) {
  if (size == 4)
    std::memcpy(dst, src, 4);
  else if (size == 8)
    std::memcpy(dst, src, 8);
  else
    std::memcpy(dst, src, size);
}

Error bad(const MemberDesc& m, const std::string& what, size_t at);
// Refuses bytes after a command's last parameter other than its padding.
Status nothing_after(const Reader& r);

// The command's leading values and handles (vk_flat.cpp): how many were
// written or read; none read when the payload is too short (the caller's
// loop then reads them and says where it ends).
size_t encode_flat(Writer& w, const CommandDesc& cmd, const void* args, Handles& h);
Result<uint32_t> decode_flat(Reader& r, const CommandDesc& cmd, void* args, Handles& h);

}  // namespace wire::vk::internal
