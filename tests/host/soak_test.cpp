// 1000 cycles of a guest process that connects, renders and is killed with
// SIGKILL mid-frame: the host's resident memory stays within 5% of where it
// settled after the first 50, and its open file descriptors do not change.
// With renderer processes, every tenth cycle kills the guest's renderer
// instead, and no process is left behind either.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "host_fixture.h"
#include "process_counts.h"

extern char** environ;

namespace hosttest {
namespace {

constexpr int kWarmup = 50;

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

bool settle(host::Server& s) {
  for (int i = 0; i < 1000 && s.live_sessions() != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return s.live_sessions() == 0;
}

// One guest process: waits for its first frame, runs `mid_frame` (which may
// kill its renderer), then kills the guest.
bool cycle(const std::string& guest, const std::string& address, const std::function<void()>& mid_frame) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  char* argv[] = {const_cast<char*>(guest.c_str()), const_cast<char*>(address.c_str()), nullptr};
  pid_t pid = 0;
  int rc = posix_spawn(&pid, guest.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  bool rendered = false;
  if (rc == 0) {
    pollfd p{fds[0], POLLIN, 0};
    char c = 0;
    rendered = poll(&p, 1, 20000) == 1 && read(fds[0], &c, 1) == 1 && c == 'R';
    if (rendered) mid_frame();
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
  }
  close(fds[0]);
  return rendered;
}

// Kills the renderer of the newest live session.
void kill_newest_renderer(host::Server& s) {
  const nlohmann::json stats = s.stats_json();
  int newest = -1, pid = 0;
  for (const auto& session : stats["sessions"]) {
    if (session["id"].get<int>() > newest) {
      newest = session["id"].get<int>();
      pid = session["renderer_pid"].get<int>();
    }
  }
  if (pid > 0) kill(pid, SIGKILL);
}

struct Holdings {
  size_t resident_kib, fds, children;
};

Holdings holdings() { return {resident_kib(), open_fds(), children()}; }

// Runs the cycles; every `renderer_kill_every`th cycle (0: never) kills the
// renderer rather than only the guest.
void soak(RunningHost& host, int cycles, int renderer_kill_every) {
  const char* guest = std::getenv("CONDUIT_SOAK_GUEST");
  ASSERT_NE(guest, nullptr) << "CONDUIT_SOAK_GUEST names the guest program";
  int renderers_killed = 0;
  auto run = [&](int i) {
    const bool kill_renderer = renderer_kill_every > 0 && i % renderer_kill_every == renderer_kill_every - 1;
    renderers_killed += kill_renderer;
    return cycle(guest, host.address(), [&] {
      if (kill_renderer) kill_newest_renderer(host.server());
    });
  };
  for (int i = 0; i < kWarmup; ++i) ASSERT_TRUE(run(i)) << "cycle " << i;
  ASSERT_TRUE(settle(host.server()));
  const Holdings before = holdings();
  for (int i = kWarmup; i < cycles; ++i) {
    ASSERT_TRUE(run(i)) << "cycle " << i;
    if ((i + 1) % 250 == 0) std::printf("cycle %d: resident %zu KiB\n", i + 1, resident_kib());
  }
  ASSERT_TRUE(settle(host.server()));
  Holdings after = holdings();
  // The spare renderer may still be starting: give it a moment.
  for (int i = 0; i < 200 && after.children != before.children; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    after = holdings();
  }
  std::printf("after %d cycles (%d renderers killed): resident %zu KiB (after %d: %zu KiB), fds %zu (%zu), "
              "child processes %zu (%zu)\n",
              cycles, renderers_killed, after.resident_kib, kWarmup, before.resident_kib, after.fds, before.fds,
              after.children, before.children);
  EXPECT_LE(after.resident_kib, before.resident_kib + before.resident_kib / 20);
  EXPECT_EQ(after.fds, before.fds);
  EXPECT_EQ(after.children, before.children);
  if (renderer_kill_every > 0) {
    EXPECT_EQ(host.server().stats_json()["renderers"]["crashed"].get<int>(), renderers_killed);
  }
}

TEST(HostSoak, ThousandKilledGuestsLeakNothing) {
  // Session threads that happen to overlap each get a malloc arena of their
  // own; a fixed number keeps resident memory a measure of live memory.
  mallopt(M_ARENA_MAX, 2);
  RunningHost host;
  ASSERT_TRUE(host.ok()) << host.error();
  soak(host, env_int("CONDUIT_SOAK_CYCLES", 1000), 0);
}

TEST(HostSoak, KilledGuestsAndRenderersLeaveNoProcessBehind) {
  const char* exe = std::getenv("CONDUIT_EXE");
  if (!exe) GTEST_SKIP() << "CONDUIT_EXE not set";
  mallopt(M_ARENA_MAX, 2);
  host::HostOptions o;
  o.renderer_exe = exe;
  RunningHost host(o);
  ASSERT_TRUE(host.ok()) << host.error();
  soak(host, env_int("CONDUIT_SOAK_PROCESS_CYCLES", 1000), 10);
}

}  // namespace
}  // namespace hosttest
