// The supervisor's doors: the host shuts down with a handshake in progress
// (the handshake ends at its deadline and the host after it, however silent
// the peer), an accept loop out of descriptors waits for some instead of
// spinning, and silent connections cannot hold every handshake of a peer.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "host_fixture.h"
#include "process_counts.h"
#include "witness.h"
#include "wire/address.h"

namespace hosttest {
namespace {

sockaddr_un socket_address(const std::string& address) {
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  std::strncpy(sa.sun_path, wire::Address::parse(address)->path.c_str(), sizeof sa.sun_path - 1);
  return sa;
}

// Connects `fd` to a unix: address.
bool connect_to(int fd, const std::string& address) {
  const sockaddr_un sa = socket_address(address);
  return ::connect(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa) == 0;
}

// A connection to a unix: address that never says a word.
int silent_connection(const std::string& address) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && !connect_to(fd, address)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

TEST(Doors, ShutdownEndsWithASilentHandshakeInProgress) {
  auto host = std::make_unique<RunningHost>();
  ASSERT_TRUE(host->ok()) << host->error();
  const int silent = silent_connection(host->address());
  ASSERT_GE(silent, 0);
  // The accept loop hands it to a handshake thread, which waits for its hello.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Stopped on a thread of its own, which a deadlocked host would never leave.
  auto ended = std::make_shared<std::promise<void>>();
  auto done = ended->get_future();
  std::thread([h = std::move(host), ended]() mutable {
    h.reset();
    ended->set_value();
  }).detach();
  // The handshake deadline (TransportOptions::io_timeout, 5 s) and a margin.
  EXPECT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "the host did not finish shutting down";
  ::close(silent);
}

// A renderer once cut the supervisor's descriptor limit (prlimit64, now
// refused by its filter); any process may be short of descriptors. A
// connection that cannot be accepted stays queued, so accepting again at
// once fails again: the loop must wait, and serve the guest once it can.
TEST(Doors, AcceptingWithoutDescriptorsWaitsInsteadOfSpinning) {
  RunningHost host;
  ASSERT_TRUE(host.ok()) << host.error();
  const int waiting = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(waiting, 0);
  rlimit before{};
  ::getrlimit(RLIMIT_NOFILE, &before);
  rlimit none = before;
  none.rlim_cur = open_fds();
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &none), 0);
  // Every descriptor below the limit taken.
  std::vector<int> fillers;
  for (int fd; (fd = ::dup(waiting)) >= 0;) fillers.push_back(fd);
  ASSERT_EQ(errno, EMFILE);
  ASSERT_TRUE(connect_to(waiting, host.address()));
  const double start = cpu_seconds();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const double spent = cpu_seconds() - start;
  for (int fd : fillers) ::close(fd);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &before), 0);
  EXPECT_LT(spent, 0.2) << "CPU seconds the host spent in one second without descriptors";
  ::close(waiting);
  auto witness = clearing_guest(host.address());
  ASSERT_TRUE(witness) << "served once descriptors are free again";
  expect_witness_renders(*witness, 1);
}

// Silent connections of one peer hold at most its share of handshakes; a
// new connection takes the slot of the oldest, so the peer's guest that
// has the token is still served.
TEST(Doors, SilentHandshakesGiveWayToANewOne) {
  RunningHost host;
  ASSERT_TRUE(host.ok()) << host.error();
  std::vector<int> silent;
  for (int i = 0; i < 40; ++i) {  // more than the share of one peer (its uid here), 32
    silent.push_back(silent_connection(host.address()));
    ASSERT_GE(silent.back(), 0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (uint32_t frame = 1; frame <= 3; ++frame) {
    auto guest = clearing_guest(host.address());
    ASSERT_TRUE(guest) << "guest " << frame << " was refused a handshake";
    expect_witness_renders(*guest, frame);
  }
  for (int fd : silent) ::close(fd);
}

// On shm: too a new connection takes the slot of the oldest silent one,
// which ends at once: more silent connections than the host takes
// handshakes in all (64) cannot lock out the peer's guest.
TEST(Doors, SilentShmHandshakesGiveWayToANewOne) {
  host::HostOptions o;
  const std::string path = "/tmp/conduit-doors-" + std::to_string(::getpid()) + ".shm";
  o.listen = {"shm:" + path};
  RunningHost host(o);
  ASSERT_TRUE(host.ok()) << host.error();
  std::vector<int> silent;
  for (int i = 0; i < 80; ++i) {
    silent.push_back(silent_connection("unix:" + path));
    ASSERT_GE(silent.back(), 0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (uint32_t frame = 1; frame <= 3; ++frame) {
    auto guest = clearing_guest("shm:" + path);
    ASSERT_TRUE(guest) << "guest " << frame << " was refused a handshake";
    expect_witness_renders(*guest, frame);
  }
  for (int fd : silent) ::close(fd);
}

}  // namespace
}  // namespace hosttest
