// Every string glGetString and glGetStringi(GL_EXTENSIONS) answer on a
// context, sent in one reply (docs/wire-format.md, kContextStrings): the
// host encodes them, the guest decodes them into the cache its contexts of
// the same attributes share.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wire/result.h"

namespace wire {

// The glGetString names carried, in this order.
inline constexpr std::array<uint32_t, 5> kContextStringNames = {
    0x1F00,  // GL_VENDOR
    0x1F01,  // GL_RENDERER
    0x1F02,  // GL_VERSION
    0x8B8C,  // GL_SHADING_LANGUAGE_VERSION
    0x1F03,  // GL_EXTENSIONS
};

struct ContextStrings {
  // glGetString's answer for each of kContextStringNames; none where GL
  // refused the name (a core profile's GL_EXTENSIONS, OpenGL ES 1's
  // shading language version).
  std::array<std::optional<std::string>, kContextStringNames.size()> named;
  // Whether GL answered GL_NUM_EXTENSIONS (OpenGL 3.0 and OpenGL ES 3.0 on),
  // and then glGetStringi(GL_EXTENSIONS, i) for each i below it.
  bool indexed = false;
  std::vector<std::string> extensions;
  bool operator==(const ContextStrings&) const = default;
};

// Bound on one reply: drivers list a few hundred extensions (Mesa's
// llvmpipe about 25 KiB in all); past it the guest asks string by string.
inline constexpr size_t kMaxContextStringsBytes = 256 * 1024;

// The bytes of `s`; a kLimit error past kMaxContextStringsBytes.
Result<std::vector<std::byte>> encode_context_strings(const ContextStrings& s);
// None when `bytes` are not a whole ContextStrings.
std::optional<ContextStrings> decode_context_strings(std::span<const std::byte> bytes);

}  // namespace wire
