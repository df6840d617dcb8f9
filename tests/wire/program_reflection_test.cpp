// The program reflection's encoding: what the host encodes the guest
// decodes as it was, a reflection past the bound loses its interface and
// keeps the rest, and no prefix of one decodes.
#include <gtest/gtest.h>

#include <string>

#include "wire/program_reflection.h"

namespace wire {
namespace {

ProgramReflection linked(size_t uniforms) {
  ProgramReflection r;
  r.values = {{0x8B82, 1}, {0x8B84, 12}, {0x8B86, static_cast<int32_t>(uniforms)}};
  r.info_log = "all is well";
  r.interface_known = true;
  r.attributes = {{"pos", 0x8B52, 1, 0, false}, {"uv[0]", 0x8B50, 2, 1, true}};
  for (size_t i = 0; i < uniforms; ++i) {
    r.uniforms.push_back({"uniform_with_a_long_name_" + std::to_string(i) + "[0]", 0x8B52, 4,
                          static_cast<int32_t>(4 * i), true});
  }
  r.blocks = {"Block", "Other[0]", ""};
  return r;
}

TEST(ProgramReflection, DecodesAsEncoded) {
  const ProgramReflection r = linked(3);
  EXPECT_EQ(decode_reflection(encode_reflection(r)), r);
}

TEST(ProgramReflection, AFailedLinkCarriesItsValuesAndLogOnly) {
  ProgramReflection r;
  r.values = {{0x8B82, 0}, {0x8B84, 40}};
  r.info_log = std::string(39, 'e');
  EXPECT_EQ(decode_reflection(encode_reflection(r)), r);
}

TEST(ProgramReflection, PastTheBoundTheInterfaceIsLeftOut) {
  const ProgramReflection r = linked(2000);
  const auto bytes = encode_reflection(r);
  EXPECT_LE(bytes.size(), kMaxReflectionBytes);
  auto decoded = decode_reflection(bytes);
  ASSERT_TRUE(decoded);
  EXPECT_FALSE(decoded->interface_known);
  EXPECT_TRUE(decoded->uniforms.empty());
  EXPECT_EQ(decoded->values, r.values);
  EXPECT_EQ(decoded->info_log, r.info_log);
}

TEST(ProgramReflection, NoTruncatedReflectionDecodes) {
  const auto bytes = encode_reflection(linked(3));
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(decode_reflection(std::span(bytes).first(n))) << n << " of " << bytes.size();
  }
}

}  // namespace
}  // namespace wire
