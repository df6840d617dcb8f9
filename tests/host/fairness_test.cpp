// Several guests at once: each renders its own correct frames and none is
// starved. Guests that vanish leave nothing behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <thread>
#include <vector>

#include "host_fixture.h"
#include "process_counts.h"
#include "test_guest.h"
#include "wire/gl_encode.h"

namespace hosttest {
namespace {

using wire::Api;
constexpr GLbitfield kColorBufferBit = 0x4000;

struct GuestRun {
  uint32_t frames = 0;
  uint32_t wrong = 0;
  bool ok = false;
};

// Renders frames of its own colour for `duration`, at most two in flight.
void render_for(const std::string& address, uint32_t index, std::chrono::milliseconds duration, GuestRun* out) {
  auto g = TestGuest::connect(address);
  if (!g || !g->hello().ok() || g->create_context(1, Api::kGles, 3, 0) != 0) return;
  g->create_surface(1, 128, 128);
  g->make_current(1, 1, 1);
  float red = static_cast<float>(index * 16 + 15) / 255.0f;
  wire::encode_glClearColor(g->w(), red, 0.0f, 0.0f, 1.0f);
  uint32_t expect = 0xFF000000u | ((index * 16 + 15) << 16);
  auto end = std::chrono::steady_clock::now() + duration;
  uint32_t sent = 0;
  while (std::chrono::steady_clock::now() < end) {
    wire::encode_glClear(g->w(), kColorBufferBit);
    g->swap(1, ++sent);
    if (!g->send().ok()) return;
    while (sent - out->frames > 2 || (!g->frames.empty())) {
      ReceivedFrame f;
      if (!g->wait_frame(&f)) return;
      ++out->frames;
      if (f.frame.frame_id != out->frames || f.argb(64, 64) != expect) ++out->wrong;
    }
  }
  while (out->frames < sent) {
    ReceivedFrame f;
    if (!g->wait_frame(&f)) return;
    ++out->frames;
    if (f.argb(64, 64) != expect) ++out->wrong;
  }
  out->ok = g->lost.empty();
}

bool wait_sessions_gone(host::Server& s) {
  for (int i = 0; i < 500 && s.live_sessions() != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return s.live_sessions() == 0;
}

TEST(HostGuests, EightGuestsEachGetAFairShare) {
  RunningHost host;
  ASSERT_TRUE(host.ok()) << host.error();
  constexpr uint32_t kGuests = 8;
  std::vector<GuestRun> runs(kGuests);
  std::vector<std::thread> threads;
  for (uint32_t i = 0; i < kGuests; ++i) {
    threads.emplace_back(render_for, host.address(), i, std::chrono::milliseconds(2500), &runs[i]);
  }
  for (auto& t : threads) t.join();
  uint32_t total = 0, least = ~0u;
  for (uint32_t i = 0; i < kGuests; ++i) {
    EXPECT_TRUE(runs[i].ok) << "guest " << i;
    EXPECT_EQ(runs[i].wrong, 0u) << "guest " << i;
    total += runs[i].frames;
    least = std::min(least, runs[i].frames);
  }
  // Each guest gets at least half of an even share of the frames.
  EXPECT_GE(least * kGuests * 2, total) << "least " << least << " of " << total;
  EXPECT_GT(least, 0u);
  for (uint32_t i = 0; i < kGuests; ++i) std::printf("guest %u: %u frames\n", i, runs[i].frames);
}

TEST(HostGuests, VanishedGuestsLeaveNothingBehind) {
  RunningHost host;
  ASSERT_TRUE(host.ok()) << host.error();
  auto cycle = [&] {
    auto g = TestGuest::connect(host.address());
    ASSERT_TRUE(g && g->hello().ok());
    ASSERT_EQ(g->create_context(1, Api::kGles, 3, 0), 0u);
    ASSERT_EQ(g->create_context(2, Api::kGles, 3, 0, wire::Profile::kNone, 1), 0u);
    g->create_surface(1, 64, 64);
    g->make_current(1, 1, 1);
    wire::encode_glClear(g->w(), kColorBufferBit);
    g->swap(1, 1);
    wire::encode_glClear(g->w(), kColorBufferBit);
    g->swap(1, 2);  // gone before this frame is read back
    ASSERT_TRUE(g->send().ok());
  };
  for (int i = 0; i < 5; ++i) cycle();
  ASSERT_TRUE(wait_sessions_gone(host.server()));
  size_t fds = open_fds();
  for (int i = 0; i < 20; ++i) cycle();
  ASSERT_TRUE(wait_sessions_gone(host.server()));
  EXPECT_EQ(open_fds(), fds);
}

}  // namespace
}  // namespace hosttest
