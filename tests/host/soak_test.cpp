// 1000 cycles of a guest process that connects, renders and is killed with
// SIGKILL mid-frame: the host's resident memory stays within 5% of where it
// settled after the first 50, and its open file descriptors do not change.
#include <gtest/gtest.h>

#include <dirent.h>
#include <malloc.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "host_fixture.h"

extern char** environ;

namespace hosttest {
namespace {

// Resident memory with the allocator's free pages handed back first, so the
// number follows what is live rather than where malloc happens to stand.
size_t resident_kib() {
  malloc_trim(0);
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

size_t open_fds() {
  size_t n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d)) ++n;
    closedir(d);
  }
  return n;
}

bool settle(host::Server& s) {
  for (int i = 0; i < 1000 && s.live_sessions() != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return s.live_sessions() == 0;
}

// One guest process: waits for its first frame, then kills it mid-stream.
bool cycle(const std::string& guest, const std::string& address) {
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
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
  }
  close(fds[0]);
  return rendered;
}

TEST(HostSoak, ThousandKilledGuestsLeakNothing) {
  const char* guest = std::getenv("CONDUIT_SOAK_GUEST");
  ASSERT_NE(guest, nullptr) << "CONDUIT_SOAK_GUEST names the guest program";
  int cycles = std::getenv("CONDUIT_SOAK_CYCLES") ? std::atoi(std::getenv("CONDUIT_SOAK_CYCLES")) : 1000;
  // Session threads that happen to overlap each get a malloc arena of their
  // own; a fixed number keeps resident memory a measure of live memory.
  mallopt(M_ARENA_MAX, 2);
  RunningHost host;
  ASSERT_TRUE(host.ok()) << host.error();
  constexpr int kWarmup = 50;
  for (int i = 0; i < kWarmup; ++i) ASSERT_TRUE(cycle(guest, host.address())) << "cycle " << i;
  ASSERT_TRUE(settle(host.server()));
  size_t rss0 = resident_kib(), fds0 = open_fds();
  for (int i = kWarmup; i < cycles; ++i) {
    ASSERT_TRUE(cycle(guest, host.address())) << "cycle " << i;
    if ((i + 1) % 250 == 0) std::printf("cycle %d: resident %zu KiB\n", i + 1, resident_kib());
  }
  ASSERT_TRUE(settle(host.server()));
  size_t rss1 = resident_kib(), fds1 = open_fds();
  std::printf("after %d cycles: resident %zu KiB (after %d: %zu KiB), fds %zu (%zu)\n", cycles, rss1,
              kWarmup, rss0, fds1, fds0);
  EXPECT_LE(rss1, rss0 + rss0 / 20);
  EXPECT_EQ(fds1, fds0);
}

}  // namespace
}  // namespace hosttest
