// Every generated command: random arguments encode and decode back to the
// same scalars and bytes; every truncation of its payload fails cleanly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "roundtrip_support.h"
#include "wire/format.h"
#include "wire/reader.h"

std::vector<std::byte> single_command(const wire::Writer& w, uint32_t opcode) {
  wire::CommandIterator it(w.bytes());
  auto cmd = it.next();
  EXPECT_TRUE(cmd.ok());
  EXPECT_TRUE(it.done());
  if (!cmd.ok()) return {};
  EXPECT_EQ(cmd->opcode, opcode);
  return {cmd->payload.begin(), cmd->payload.end()};
}

void expect_truncation_fails(const std::vector<std::byte>& payload,
                             const std::function<wire::Status(wire::Reader&)>& decode) {
  wire::Reader full(payload, 0);
  ASSERT_TRUE(decode(full).ok());
  const size_t consumed = full.offset();
  for (size_t cut = 0; cut + wire::kAlign <= consumed; ++cut) {
    // A copy of exactly `cut` bytes, so a read past it is an ASan error.
    std::vector<std::byte> prefix(payload.begin(), payload.begin() + cut);
    wire::Reader r(prefix, 0);
    EXPECT_FALSE(decode(r).ok()) << "decoded from " << cut << " of " << consumed << " bytes";
  }
}

namespace {

uint64_t test_seed() {
  if (const char* s = std::getenv("CONDUIT_TEST_SEED")) return std::strtoull(s, nullptr, 0);
  return std::random_device{}();
}

TEST(GlRoundTrip, EveryCommandWithRandomArguments) {
  const uint64_t seed = test_seed();
  Rng rng(seed);
  ASSERT_GT(all_roundtrips().size(), 900u);
  for (const RoundTrip& rt : all_roundtrips()) {
    SCOPED_TRACE(std::string(rt.name) + " (CONDUIT_TEST_SEED=" + std::to_string(seed) + ")");
    rt.run(rng);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
