#include "shaders_cache/program_entry.h"

#include <gtest/gtest.h>

namespace shaders_cache {
namespace {

ProgramEntry sample() {
  ProgramEntry e;
  e.binary_format = 0x8740;
  e.binary = {std::byte{1}, std::byte{2}, std::byte{3}};
  e.info_log = "warning: unused";
  e.reflection.attributes = {{"position", 0x8B51, 1, 0}, {"normal", 0x8B51, 1, 1}};
  e.reflection.uniforms = {{"mvp", 0x8B5C, 1, 3}};
  e.reflection.blocks = {{"Lights", 0, 64, 2}};
  return e;
}

TEST(ProgramEntryTest, RoundTrips) {
  const ProgramEntry e = sample();
  auto back = decode_program(encode(e));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->binary_format, e.binary_format);
  EXPECT_EQ(back->binary, e.binary);
  EXPECT_EQ(back->info_log, e.info_log);
  EXPECT_EQ(back->reflection, e.reflection);
  auto shader = decode_shader(encode(ShaderEntry{true, "ok"}));
  ASSERT_TRUE(shader);
  EXPECT_TRUE(shader->compiled);
  EXPECT_EQ(shader->info_log, "ok");
}

TEST(ProgramEntryTest, EveryTruncationAndTheOtherKindAreRefused) {
  const auto bytes = encode(sample());
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(decode_program(std::span(bytes).first(n))) << n;
  EXPECT_FALSE(decode_shader(bytes));
  EXPECT_FALSE(decode_program(encode(ShaderEntry{true, ""})));
  auto longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_FALSE(decode_program(longer));
}

TEST(ProgramEntryTest, HugeCountsAreRefusedWithoutAllocating) {
  auto bytes = encode(ProgramEntry{1, {std::byte{9}}, "", {}});
  // The attribute count sits after tag, format, binary (4+1) and log (4).
  const size_t at = 4 + 4 + 5 + 4;
  for (int i = 0; i < 4; ++i) bytes[at + i] = std::byte{0xff};
  EXPECT_FALSE(decode_program(bytes));
}

}  // namespace
}  // namespace shaders_cache
