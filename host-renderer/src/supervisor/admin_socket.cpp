#include "host/admin_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

#include "wire/local_socket.h"

namespace host {

namespace {

constexpr int kPollMs = 100;
constexpr auto kReadTimeout = std::chrono::seconds(5);
constexpr size_t kMaxAnswer = 16u << 20;

void write_answer(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, kPollMs) > 0) continue;
    }
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

wire::Result<std::unique_ptr<AdminSocket>> AdminSocket::open(const std::string& path) {
  auto fd = wire::listen_owner_socket(path);
  if (!fd) return wire::make_error(fd.error().code, "admin socket " + path + ": " + fd.error().detail);
  return std::unique_ptr<AdminSocket>(new AdminSocket(*fd, path));
}

AdminSocket::~AdminSocket() {
  ::close(fd_);
  ::unlink(path_.c_str());
}

void AdminSocket::serve(const std::atomic<bool>& stop, const std::function<std::string()>& answer) {
  while (!stop.load()) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, kPollMs) <= 0) continue;
    int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (client < 0) {
      // Out of descriptors: the connection stays queued and poll says so at
      // once; wait instead of spinning until some are freed.
      if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
      continue;
    }
    if (wire::peer_is_owner(client)) write_answer(client, answer() + "\n");
    ::close(client);
  }
}

wire::Result<std::string> read_admin(const std::string& path) {
  auto fd = wire::connect_owner_socket(path, kReadTimeout);
  if (!fd) return fd.error();
  std::string text;
  char buf[65536];
  const auto deadline = std::chrono::steady_clock::now() + kReadTimeout;
  while (text.size() <= kMaxAnswer && std::chrono::steady_clock::now() < deadline) {
    ssize_t n = ::read(*fd, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) break;
    pollfd p{*fd, POLLIN, 0};
    ::poll(&p, 1, kPollMs);
  }
  ::close(*fd);
  if (text.empty()) {
    return wire::make_error(wire::Errc::kClosed, path + " answered nothing (not the host's user?)");
  }
  return text;
}

}  // namespace host
