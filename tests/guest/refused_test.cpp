// A host that will not serve a program says why, and the guest library
// passes its words on (Connection::shared() prints them).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "conn/connection.h"
#include "host_process.h"

namespace icd {
namespace {

TEST(Refused, TheHostsReasonReachesTheProgram) {
  // A budget of one byte: the renderer serving the first program spends it.
  guesttest::HostProcess host({"--max-host-memory", "1"});
  ASSERT_TRUE(host.ok()) << host.error();
  // The host's own start-up probes may still hold a renderer for a moment.
  auto first = Connection::open(host.address());
  for (int i = 0; i < 50 && !first; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    first = Connection::open(host.address());
  }
  ASSERT_TRUE(first) << first.error().describe();
  auto second = Connection::open(host.address());
  ASSERT_FALSE(second);
  EXPECT_NE(second.error().detail.find("the host refused this program: the host's memory budget is spent"),
            std::string::npos)
      << second.error().describe();
  EXPECT_NE(second.error().detail.find("(--max-host-memory)"), std::string::npos) << second.error().describe();
  EXPECT_FALSE((*first)->lost()) << "the first program carries on";
}

}  // namespace
}  // namespace icd
