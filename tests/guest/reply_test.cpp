// Replies a waiter gave up on (a vkWaitForFences the host's word on its
// fences ended early) are dropped when they come: the next waiter gets its
// own reply, not the one nobody wanted.
#include <gtest/gtest.h>

#include <string>

#include "conn/connection.h"
#include "host_process.h"
#include "wire/control.h"
#include "wire/writer.h"

namespace icd {
namespace {

// One control command with no payload, as a batch that wants a reply.
uint64_t ask(Connection& c, wire::ControlOp op) {
  wire::Writer w;
  w.end(w.begin(static_cast<uint32_t>(op)));
  uint64_t ticket = 0;
  EXPECT_TRUE(c.send(nullptr, w.bytes(), w.commands(), &ticket));
  return ticket;
}

TEST(Replies, AReplyGivenUpIsDroppedAndTheNextWaiterGetsItsOwn) {
  guesttest::HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  auto conn = Connection::open(host.address());
  ASSERT_TRUE(conn) << conn.error().describe();
  Connection& c = **conn;
  for (int i = 0; i < 50; ++i) {
    const uint64_t given_up = ask(c, wire::ControlOp::kSync);
    auto early = c.wait_reply_unless(given_up, [] { return true; });
    ASSERT_TRUE(early) << early.error().describe();
    // The statistics' reply is JSON; the sync's is empty.
    const uint64_t wanted = ask(c, wire::ControlOp::kGetStats);
    auto reply = c.wait_reply(wanted);
    ASSERT_TRUE(reply) << reply.error().describe();
    const std::string text(reinterpret_cast<const char*>(reply->data()), reply->size());
    ASSERT_EQ(text.substr(0, 1), "{") << "round " << i;
  }
  // A reply cannot come back before the waiter first looks.
  EXPECT_GT(c.stats().ended_before_reply.load(), 0u);
  EXPECT_FALSE(c.lost());
}

// The hello's answer names the host's renderer and driver version (what
// GLX_MESA_query_renderer reports), how much the guest may hold there (the
// host's default --max-guest-memory) and its largest pbuffer.
TEST(Hello, TheHostSaysWhatRendersAndWhatTheGuestMayHold) {
  guesttest::HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  auto conn = Connection::open(host.address());
  ASSERT_TRUE(conn) << conn.error().describe();
  const HostInfo& info = (*conn)->host();
  EXPECT_FALSE(info.renderer.empty());
  EXPECT_FALSE(info.vendor.empty());
  EXPECT_FALSE(info.gl_version.empty());
  EXPECT_EQ(info.guest_memory_bytes, uint64_t{2} << 30);
  // The largest pbuffer the host's EGL makes (llvmpipe: 4096), which the
  // guest's configs offer as EGL_MAX_PBUFFER_WIDTH and _HEIGHT.
  EXPECT_GT(info.max_pbuffer_side, 0u);
  EXPECT_LE(info.max_pbuffer_side, 16384u);
}

}  // namespace
}  // namespace icd
