// The log helpers every process shares: text without its trailing newlines,
// and a budget that lets a burst through, holds the rest back and says how
// many it held once the next period lets a line through again.
#include "wire/log_line.h"

#include <gtest/gtest.h>

#include <thread>

namespace wire {
namespace {

TEST(LogLine, TextLosesItsTrailingNewlines) {
  EXPECT_EQ(format_text("%s sent %d\n\n", "viewer", 3), "viewer sent 3");
  EXPECT_EQ(format_text("no newline"), "no newline");
  EXPECT_EQ(format_text("\n"), "");
}

TEST(LogLine, LongTextIsCutNotOverrun) {
  const std::string long_word(5000, 'x');
  EXPECT_EQ(format_text("%s", long_word.c_str()).size(), 1023u);
}

TEST(RateLimiter, ABurstGoesThroughAndTheRestIsCounted) {
  RateLimiter limiter(3, std::chrono::milliseconds(200));
  uint64_t dropped = 99;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(limiter.allow(&dropped));
    EXPECT_EQ(dropped, 0u);
  }
  EXPECT_FALSE(limiter.allow(&dropped));
  EXPECT_FALSE(limiter.allow(&dropped));
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_TRUE(limiter.allow(&dropped));
  EXPECT_EQ(dropped, 2u);
  EXPECT_TRUE(limiter.allow(&dropped));
  EXPECT_EQ(dropped, 0u);
}

}  // namespace
}  // namespace wire
