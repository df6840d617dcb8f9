// The host shuts down with a handshake in progress: the handshake ends at
// its deadline and the host after it, however silent the peer.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <thread>

#include "host_fixture.h"

namespace hosttest {
namespace {

// A connection to a unix: address that never says a word.
int silent_connection(const std::string& address) {
  const std::string path = address.substr(std::strlen("unix:"));
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  std::strncpy(sa.sun_path, path.c_str(), sizeof sa.sun_path - 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TEST(Shutdown, EndsWithASilentHandshakeInProgress) {
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

}  // namespace
}  // namespace hosttest
