#include "host/admin_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

constexpr int kPollMs = 100;
constexpr size_t kMaxAnswer = 16u << 20;

wire::Error sys_error(const std::string& what) {
  return make_error(Errc::kIo, what + ": " + std::strerror(errno));
}

wire::Result<sockaddr_un> unix_address(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof a.sun_path) {
    return make_error(Errc::kBadValue, "admin socket path too long: " + path);
  }
  std::memcpy(a.sun_path, path.data(), path.size());
  return a;
}

bool same_user(int fd) {
  ucred cred{};
  socklen_t len = sizeof cred;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return false;
  return cred.uid == ::getuid() || cred.uid == 0;
}

void write_answer(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

wire::Result<std::unique_ptr<AdminSocket>> AdminSocket::open(const std::string& path) {
  auto addr = unix_address(path);
  if (!addr) return addr.error();
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return sys_error("socket");
  ::unlink(path.c_str());
  // Created owner-only: the umask applies while bind makes the file.
  const mode_t old = ::umask(0077);
  const int rc = ::bind(fd, reinterpret_cast<sockaddr*>(&*addr), sizeof *addr);
  ::umask(old);
  if (rc != 0 || ::listen(fd, 16) != 0) {
    auto e = sys_error("admin socket " + path);
    ::close(fd);
    return e;
  }
  return std::unique_ptr<AdminSocket>(new AdminSocket(fd, path));
}

AdminSocket::~AdminSocket() {
  ::close(fd_);
  ::unlink(path_.c_str());
}

void AdminSocket::serve(const std::atomic<bool>& stop, const std::function<std::string()>& answer) {
  while (!stop.load()) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, kPollMs) <= 0) continue;
    int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    if (same_user(client)) write_answer(client, answer() + "\n");
    ::close(client);
  }
}

wire::Result<std::string> read_admin(const std::string& path) {
  auto addr = unix_address(path);
  if (!addr) return addr.error();
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return sys_error("socket");
  if (::connect(fd, reinterpret_cast<sockaddr*>(&*addr), sizeof *addr) != 0) {
    auto e = sys_error("connect " + path);
    ::close(fd);
    return e;
  }
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || text.size() > kMaxAnswer) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (text.empty()) return make_error(Errc::kClosed, path + " answered nothing (not the host's user?)");
  return text;
}

}  // namespace host
