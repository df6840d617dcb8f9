// Renderer processes: a guest that crashes its renderer, or tries what the
// sandbox refuses, costs only itself; caps hold; guests see only themselves.
#include <gtest/gtest.h>

#include <signal.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "host_fixture.h"
#include "process_counts.h"
#include "renderer_guests.h"
#include "test_guest.h"
#include "wire/gl_encode.h"
#include "wire/sanitizer.h"

namespace hosttest {
namespace {

// Bystanders render their own colour the whole time; counts wrong or missing frames.
struct Bystanders {
  Bystanders(const std::string& address, uint32_t n) : bad(n) {
    for (uint32_t i = 0; i < n; ++i) {
      threads.emplace_back([this, address, i] {
        auto g = ready_guest(address);
        ready.fetch_add(1);
        if (!g) {
          bad[i] = 1000;
          return;
        }
        for (uint32_t frame = 1; !stop.load(); ++frame) bad[i] += renders(*g, 40 + i * 20, frame) ? 0 : 1;
      });
    }
    // Renderers start one after another: all bystanders are served before
    // anyone else comes.
    while (ready.load() < n) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ~Bystanders() { finish(); }
  uint32_t finish() {
    stop.store(true);
    for (auto& t : threads) {
      if (t.joinable()) t.join();
    }
    uint32_t total = 0;
    for (uint32_t b : bad) total += b;
    return total;
  }
  std::vector<uint32_t> bad;
  std::atomic<bool> stop{false};
  std::atomic<uint32_t> ready{0};
  std::vector<std::thread> threads;
};

class Isolation : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("CONDUIT_EXE")) GTEST_SKIP() << "CONDUIT_EXE not set";
  }
};

class RendererCrash : public Isolation, public ::testing::WithParamInterface<wire::Fault> {};

TEST_P(RendererCrash, LosesOnlyItsOwnGuest) {
  RunningHost host(isolated());
  ASSERT_TRUE(host.ok()) << host.error();
  Bystanders others(host.address(), 8);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto attacker = ready_guest(host.address());
  ASSERT_TRUE(attacker);
  ASSERT_TRUE(renders(*attacker, 200, 1));
  attacker->control(wire::ControlOp::kTestFault, wire::TestFault{static_cast<uint32_t>(GetParam()), 0, 0});
  ASSERT_TRUE(attacker->send().ok());
  // Generous: the supervisor notices the end when the process is gone,
  // which on a busy machine can take a while after the fault.
  EXPECT_TRUE(attacker->wait_closed(std::chrono::seconds(60)))
      << "the guest of a crashed renderer sees its connection end";
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(others.finish(), 0u) << "bystanders kept rendering correct frames";
  auto newcomer = ready_guest(host.address());
  ASSERT_TRUE(newcomer);
  EXPECT_TRUE(renders(*newcomer, 100, 1));
  // Counted once the supervisor has reaped the process.
  int crashed = 0;
  for (int i = 0; i < 1000 && crashed == 0; ++i) {
    crashed = host.server().stats_json()["renderers"]["crashed"].get<int>();
    if (crashed == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(crashed, 1);
}

INSTANTIATE_TEST_SUITE_P(Faults, RendererCrash,
                         ::testing::Values(wire::Fault::kNullWrite, wire::Fault::kAbort));

class SandboxRefuses : public Isolation, public ::testing::WithParamInterface<wire::Fault> {};

TEST_P(SandboxRefuses, WhatARendererNeverNeeds) {
  RunningHost host(isolated());
  ASSERT_TRUE(host.ok()) << host.error();
  auto g = ready_guest(host.address());
  ASSERT_TRUE(g);
  // Refused by the system call filter (EPERM) or, for files, by Landlock (EACCES).
  const uint32_t err = fault(*g, GetParam());
  EXPECT_TRUE(err == EPERM || err == EACCES) << "errno " << err;
  EXPECT_TRUE(renders(*g, 120, 1)) << "the renderer carries on";
}

// Sanitizer builds let renderers start processes: LeakSanitizer needs to.
#if CONDUIT_ASAN
INSTANTIATE_TEST_SUITE_P(Calls, SandboxRefuses,
                         ::testing::Values(wire::Fault::kCreateFile, wire::Fault::kSocket));
#else
INSTANTIATE_TEST_SUITE_P(Calls, SandboxRefuses,
                         ::testing::Values(wire::Fault::kCreateFile, wire::Fault::kSocket,
                                           wire::Fault::kFork));
#endif

// Drivers open their device nodes for writing while they run, so writing is
// limited by path (Landlock), or refused outright where the kernel lacks it:
// either way a file of the host's user stays as it was.
TEST_F(Isolation, FilesOfTheHostsUserCannotBeWritten) {
  // Named after the supervisor, this process.
  const std::string path = "/tmp/conduit-fault-write-" + std::to_string(getpid());
  {
    std::ofstream out(path, std::ios::trunc);
    out << "original";
  }
  RunningHost host(isolated());
  ASSERT_TRUE(host.ok()) << host.error();
  auto g = ready_guest(host.address());
  ASSERT_TRUE(g);
  const uint32_t err = fault(*g, wire::Fault::kWriteFile);
  EXPECT_TRUE(err == EACCES || err == EPERM) << "errno " << err;
  std::ifstream in(path);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "original");
  EXPECT_TRUE(renders(*g, 120, 1)) << "the renderer carries on";
  ::unlink(path.c_str());
}

// Two guests of `host`: a witness, and one that rendered a frame (the
// one a test then makes stop answering).
void witness_and_stuck(RunningHost& host, std::unique_ptr<TestGuest>* witness,
                       std::unique_ptr<TestGuest>* stuck) {
  *witness = ready_guest(host.address());
  *stuck = ready_guest(host.address());
  ASSERT_TRUE(*witness && *stuck);
  ASSERT_TRUE(renders(**stuck, 90, 1));
}

// A guest of `address` once a slot frees: tried every 50 ms, 100 times at
// most; null if none was served.
std::unique_ptr<TestGuest> served_once_freed(const std::string& address) {
  std::unique_ptr<TestGuest> later;
  for (int i = 0; i < 100 && !later; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    later = ready_guest(address);
  }
  return later;
}

// A renderer that stops answering (here: stopped) holds its guest's slot
// until the watchdog kills it; then the slot serves another guest.
TEST_F(Isolation, WatchdogEndsARendererThatStopsAnswering) {
  host::HostOptions o = isolated(2);
  o.renderer_watchdog = std::chrono::seconds(2);
  RunningHost host(o);
  ASSERT_TRUE(host.ok()) << host.error();
  std::unique_ptr<TestGuest> witness, stuck;
  ASSERT_NO_FATAL_FAILURE(witness_and_stuck(host, &witness, &stuck));
  const nlohmann::json stats = host.server().stats_json();
  ASSERT_EQ(::kill(stats["sessions"].at(1)["renderer_pid"].get<int>(), SIGSTOP), 0);
  EXPECT_TRUE(stuck->wait_closed(std::chrono::seconds(30))) << "its guest's connection ends";
  auto later = served_once_freed(host.address());
  ASSERT_TRUE(later) << "its slot serves another guest (--max-guests 2)";
  EXPECT_TRUE(renders(*later, 70, 1));
  EXPECT_TRUE(renders(*witness, 60, 1)) << "the witness never noticed";
  EXPECT_EQ(host.server().stats_json()["renderers"]["crashed"], 1);
}

// `g`'s renderer sleeps inside a command, as in a driver call that does not
// return; it does not answer.
bool stall_for_a_minute(TestGuest& g) {
  g.control(wire::ControlOp::kTestFault, wire::TestFault{static_cast<uint32_t>(wire::Fault::kStall), 0, 60000});
  return g.send().ok();
}

// Waits up to `limit` for a guest of `address` to be served; null if none was.
std::unique_ptr<TestGuest> served_within(const std::string& address, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  std::unique_ptr<TestGuest> g;
  while (!g && std::chrono::steady_clock::now() < until) {
    g = ready_guest(address);
    if (!g) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return g;
}

// A session stuck in one command (asleep in it, as in a driver call that
// never returns) while its renderer's main loop still beats: the watchdog
// would never fire, --renderer-stall does, and the slot of its peer (this
// test's uid, --max-guests-per-peer 2) serves another guest.
TEST_F(Isolation, StallEndsARendererStuckInOneCommand) {
  host::HostOptions o = isolated();
  o.max_guests_per_peer = 2;
  o.renderer_stall = std::chrono::seconds(3);
  RunningHost host(o);
  ASSERT_TRUE(host.ok()) << host.error();
  std::unique_ptr<TestGuest> witness, stuck;
  ASSERT_NO_FATAL_FAILURE(witness_and_stuck(host, &witness, &stuck));
  ASSERT_TRUE(stall_for_a_minute(*stuck));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(stuck->wait_closed(std::chrono::seconds(30))) << "its guest's connection ends";
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << "not before the bound";
  auto later = served_within(host.address(), std::chrono::seconds(30));
  ASSERT_TRUE(later) << "its peer's slot serves another guest";
  EXPECT_TRUE(renders(*later, 70, 1));
  EXPECT_TRUE(renders(*witness, 60, 1)) << "the witness never noticed";
  EXPECT_EQ(host.server().stats_json()["renderers"]["crashed"], 1);
}

// A guest that leaves while its renderer is stuck in one of its commands:
// the renderer cannot notice, the supervisor does, and kills it a watchdog
// period later (long before --renderer-stall); the guest's place serves
// the next one.
void expect_renderer_outliving_its_guest_killed(bool ring_file) {
  host::HostOptions o = isolated();
  o.max_guests_per_peer = 2;
  o.renderer_watchdog = std::chrono::seconds(2);
  o.renderer_stall = std::chrono::seconds(600);
  RunningHost host(o, ring_file);
  ASSERT_TRUE(host.ok()) << host.error();
  const std::string address = ring_file ? host.ring_address() : host.address();
  auto witness = ready_guest(host.address());
  auto stuck = ready_guest(address);
  ASSERT_TRUE(witness && stuck);
  ASSERT_TRUE(renders(*stuck, 90, 1));
  ASSERT_TRUE(stall_for_a_minute(*stuck));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // inside the command
  stuck.reset();  // the guest goes
  auto later = served_within(address, std::chrono::seconds(40));
  ASSERT_TRUE(later) << "the guest's place serves the next guest";
  EXPECT_TRUE(renders(*later, 70, 1));
  EXPECT_TRUE(renders(*witness, 60, 1)) << "the witness never noticed";
  EXPECT_EQ(host.server().stats_json()["renderers"]["crashed"], 1);
}

TEST_F(Isolation, ARendererOutlivingItsGuestIsKilled) { expect_renderer_outliving_its_guest_killed(false); }

// A polled ring file serves one guest at a time: a renderer stuck after its
// guest went would hold it for everyone.
TEST_F(Isolation, ARendererOutlivingItsRingFileGuestIsKilled) {
  expect_renderer_outliving_its_guest_killed(true);
}

// The host stops within a watchdog period even while a renderer is stuck
// in a command: its main loop, waiting for the session to end, stops beating.
TEST_F(Isolation, ShutdownEndsARendererStuckInOneCommand) {
  host::HostOptions o = isolated();
  o.renderer_watchdog = std::chrono::seconds(2);
  auto host = std::make_unique<RunningHost>(o);
  ASSERT_TRUE(host->ok()) << host->error();
  auto stuck = ready_guest(host->address());
  ASSERT_TRUE(stuck);
  ASSERT_TRUE(renders(*stuck, 90, 1));
  ASSERT_TRUE(stall_for_a_minute(*stuck));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // inside the command
  const auto start = std::chrono::steady_clock::now();
  host.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST_F(Isolation, MemoryBeyondTheRendererLimitIsRefused) {
#if CONDUIT_ASAN
  GTEST_SKIP() << "sanitizer builds set no memory limit (their shadow memory would exceed it)";
#endif
  host::HostOptions o = isolated();
  o.renderer_data_bytes = 768u << 20;
  RunningHost host(o);
  ASSERT_TRUE(host.ok()) << host.error();
  auto g = ready_guest(host.address());
  ASSERT_TRUE(g);
  EXPECT_EQ(fault(*g, wire::Fault::kAllocate, 64u << 20), 0u) << "within the limit";
  EXPECT_EQ(fault(*g, wire::Fault::kAllocate, 1024u << 20), static_cast<uint32_t>(ENOMEM));
  EXPECT_TRUE(renders(*g, 120, 1));
}

TEST_F(Isolation, MaxGuestsCapsRenderers) {
  RunningHost host(isolated(2));
  ASSERT_TRUE(host.ok()) << host.error();
  auto [a, b] = two_ready_guests(host.address());
  ASSERT_TRUE(a && b);
  auto refused = TestGuest::connect(host.address());
  ASSERT_TRUE(refused);
  EXPECT_TRUE(refused->wait_closed()) << "a third guest is refused";
  a.reset();
  auto later = served_once_freed(host.address());
  ASSERT_TRUE(later) << "once a guest leaves, another is served";
  EXPECT_TRUE(renders(*later, 80, 1));
  EXPECT_GE(host.server().stats_json()["renderers"]["refused"].get<int>(), 1);
}

TEST_F(Isolation, AGuestSeesOnlyItsOwnSession) {
  RunningHost host(isolated());
  ASSERT_TRUE(host.ok()) << host.error();
  auto [a, b] = two_ready_guests(host.address());
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(renders(*b, 60, 1));
  a->control(wire::ControlOp::kGetStats);
  auto reply = a->call();
  ASSERT_TRUE(reply.ok());
  auto j = nlohmann::json::parse(std::string(reinterpret_cast<const char*>(reply->data()), reply->size()));
  ASSERT_EQ(j["sessions"].size(), 1u);
  EXPECT_EQ(j["sessions"][0]["id"], j["session"]);
  EXPECT_EQ(j["total"]["frames"], 0) << "b's frame is not a's business";
  EXPECT_EQ(host.server().stats_json()["sessions_live"], 2);
}

TEST_F(Isolation, KilledRenderersLeaveNothingBehind) {
  RunningHost host(isolated());
  ASSERT_TRUE(host.ok()) << host.error();
  auto cycle = [&](uint32_t i) {
    auto g = ready_guest(host.address());
    ASSERT_TRUE(g);
    ASSERT_TRUE(renders(*g, i % 200, 1));
    // Held in a variable: a range-for over a member of a temporary reads freed memory.
    const nlohmann::json stats = host.server().stats_json();
    for (const auto& s : stats["sessions"]) ::kill(s["renderer_pid"].get<int>(), SIGKILL);
    EXPECT_TRUE(g->wait_closed());
  };
  cycle(0);
  for (int i = 0; i < 100 && host.server().live_sessions() != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const size_t fds = open_fds(), kids = children();
  for (uint32_t i = 1; i <= 5; ++i) cycle(i);
  for (int i = 0; i < 250 && host.server().live_sessions() != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(host.server().live_sessions(), 0u);
  EXPECT_EQ(open_fds(), fds);
  EXPECT_EQ(children(), kids) << "one spare renderer, nothing else";
  EXPECT_EQ(host.server().stats_json()["renderers"]["crashed"], 6);
}

}  // namespace
}  // namespace hosttest
