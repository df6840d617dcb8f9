// The context strings' encoding: what the host encodes the guest decodes as
// it was, strings past the bound are refused with an error, and no prefix
// of an encoding decodes.
#include <gtest/gtest.h>

#include <string>

#include "wire/context_strings.h"

namespace wire {
namespace {

ContextStrings core_context(size_t extensions) {
  ContextStrings s;
  s.named = {"Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "4.5 (Core Profile) Mesa 22.3.6", "4.50", std::nullopt};
  s.indexed = true;
  for (size_t i = 0; i < extensions; ++i) s.extensions.push_back("GL_EXT_number_" + std::to_string(i));
  s.extensions.push_back("");
  return s;
}

TEST(ContextStrings, DecodesAsEncoded) {
  const ContextStrings s = core_context(3);
  auto bytes = encode_context_strings(s);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(decode_context_strings(*bytes), s);
}

TEST(ContextStrings, AFlatListWithoutIndexDecodesAsEncoded) {
  ContextStrings s;
  s.named = {"Mesa", "llvmpipe", "OpenGL ES 2.0 Mesa", std::nullopt, "GL_OES_a GL_OES_b "};
  auto bytes = encode_context_strings(s);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(decode_context_strings(*bytes), s);
}

TEST(ContextStrings, PastTheBoundTheEncoderRefuses) {
  const ContextStrings s = core_context(kMaxContextStringsBytes / 16);
  auto bytes = encode_context_strings(s);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.error().code, Errc::kLimit);
  ContextStrings just_under = core_context(100);
  just_under.extensions.push_back(std::string(kMaxContextStringsBytes - 4096, 'x'));
  EXPECT_TRUE(encode_context_strings(just_under).ok());
}

TEST(ContextStrings, NoPrefixDecodes) {
  auto bytes = encode_context_strings(core_context(5));
  ASSERT_TRUE(bytes.ok());
  for (size_t n = 0; n < bytes->size(); ++n) {
    EXPECT_FALSE(decode_context_strings(std::span(bytes->data(), n))) << n;
  }
}

TEST(ContextStrings, AnUnknownStringBitIsRefused) {
  auto bytes = encode_context_strings(core_context(1));
  ASSERT_TRUE(bytes.ok());
  auto bad_mask = *bytes;
  bad_mask[0] = std::byte{0xFF};
  EXPECT_FALSE(decode_context_strings(bad_mask));
}

}  // namespace
}  // namespace wire
