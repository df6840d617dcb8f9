#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <vector>

void wire::Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

namespace wire::transport {

int Deadline::poll_ms() const {
  auto left = at_ - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > 1000000 ? 1000000 : static_cast<int>(ms);
}

Error errno_error(const char* what, int err) {
  Errc code = (err == EPIPE || err == ECONNRESET || err == ENOTCONN) ? Errc::kClosed : Errc::kIo;
  return make_error(code, std::string(what) + ": " + std::strerror(err));
}

Error errno_error(const char* what) { return errno_error(what, errno); }

Status set_nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return errno_error("fcntl");
  return {};
}

bool readable_now(int fd) {
  if (fd < 0) return false;
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

std::function<bool()> hang_up_probe(int fd) {
  auto dup = std::make_shared<Fd>(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
  if (!dup->valid()) return {};
  return [dup] {
    pollfd p{dup->get(), POLLRDHUP, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
  };
}

Result<short> wait_fd(int fd, short events, const Deadline& deadline, int waker) {
  for (;;) {
    pollfd fds[2] = {{fd, static_cast<short>(events | POLLRDHUP), 0}, {waker, POLLIN, 0}};
    pollfd& p = fds[0];
    int n = ::poll(fds, waker >= 0 ? 2 : 1, deadline.poll_ms());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_error("poll");
    if (n == 0) return make_error(Errc::kTimeout, "peer did not answer in time");
    if (p.revents == 0) return make_error(Errc::kTimeout, "woken");
    // Readable data still counts when the peer has also hung up: it is read
    // first, and the hang-up shows as a zero-length read.
    if (p.revents & events) return p.revents;
    if (p.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL)) {
      return make_error(Errc::kClosed, "peer hung up");
    }
  }
}

Status write_all(int fd, std::span<const std::byte> data, const Deadline& deadline) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return errno_error("send");
    auto w = wait_fd(fd, POLLOUT, deadline);
    if (!w) return w.error();
  }
  return {};
}

Status read_exact(int fd, std::span<std::byte> data, const Deadline& deadline) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::recv(fd, data.data() + done, data.size() - done, 0);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n == 0) return make_error(Errc::kClosed, "peer closed the connection");
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return errno_error("recv");
    auto w = wait_fd(fd, POLLIN, deadline);
    if (!w) return w.error();
  }
  return {};
}

Status send_with_fds(int fd, std::span<const std::byte> data, std::span<const int> fds,
                     const Deadline& deadline) {
  std::vector<char> control(CMSG_SPACE(sizeof(int) * fds.size()));
  iovec iov{const_cast<std::byte*>(data.data()), data.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.data();
  msg.msg_controllen = control.size();
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
  std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  for (;;) {
    ssize_t n = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n == static_cast<ssize_t>(data.size())) return {};
    if (n >= 0) return make_error(Errc::kIo, "short sendmsg with descriptors");
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return errno_error("sendmsg");
    auto w = wait_fd(fd, POLLOUT, deadline);
    if (!w) return w.error();
  }
}

Result<size_t> recv_with_fds(int fd, std::span<std::byte> data, std::span<Fd> fds,
                             const Deadline& deadline) {
  std::vector<char> control(CMSG_SPACE(sizeof(int) * fds.size()));
  iovec iov{data.data(), data.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.data();
  msg.msg_controllen = control.size();
  ssize_t n;
  for (;;) {
    n = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    if (n >= 0) break;
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return errno_error("recvmsg");
    auto w = wait_fd(fd, POLLIN, deadline);
    if (!w) return w.error();
  }
  // Take ownership of whatever arrived before judging it, so nothing leaks.
  size_t got = 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int received;
      std::memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      if (got < fds.size()) {
        fds[got++] = Fd(received);
      } else {
        ::close(received);
      }
    }
  }
  if (n == 0) return make_error(Errc::kClosed, "peer closed during the handshake");
  if (static_cast<size_t>(n) != data.size() || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
    return make_error(Errc::kBadLength, "handshake message of " + std::to_string(n) + " bytes");
  }
  return got;
}

namespace {

Result<sockaddr_un> unix_address(const std::string& path, socklen_t* len) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof addr.sun_path) {
    return make_error(Errc::kBadValue, "unix socket path '" + path + "' empty or too long");
  }
  std::memcpy(addr.sun_path, path.data(), path.size());
  if (path[0] == '@') addr.sun_path[0] = '\0';  // abstract namespace
  *len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size() +
                                (path[0] == '@' ? 0 : 1));
  return addr;
}

}  // namespace

Result<Fd> create_sealed_file(const char* name, size_t bytes) {
  Fd fd(::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd.valid()) return errno_error("memfd_create");
  if (::ftruncate(fd.get(), static_cast<off_t>(bytes)) < 0) return errno_error("ftruncate");
  if (::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
    return errno_error("seal memfd");
  }
  return fd;
}

Result<Fd> unix_connect(const std::string& path, const Deadline& deadline) {
  socklen_t len = 0;
  auto addr = unix_address(path, &len);
  if (!addr) return addr.error();
  Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) return errno_error("socket");
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&*addr), len) < 0) {
    if (errno != EAGAIN && errno != EINPROGRESS) {
      return errno_error(("connect " + path).c_str());
    }
    auto w = wait_fd(fd.get(), POLLOUT, deadline);
    if (!w) return w.error();
  }
  return fd;
}

Result<Fd> unix_listen(const std::string& path) {
  socklen_t len = 0;
  auto addr = unix_address(path, &len);
  if (!addr) return addr.error();
  Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) return errno_error("socket");
  if (path[0] != '@') {
    // A socket file left by a listener that died is replaced; a live one is not.
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
      auto probe = unix_connect(path, Deadline(std::chrono::milliseconds(100)));
      if (probe) return make_error(Errc::kIo, "another listener serves " + path);
      ::unlink(path.c_str());
    }
  }
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&*addr), len) < 0) {
    return errno_error(("bind " + path).c_str());
  }
  if (::listen(fd.get(), 64) < 0) return errno_error("listen");
  return fd;
}

Result<Fd> accept_fd(int listen_fd, const Deadline& deadline) {
  for (;;) {
    Fd fd(::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (fd.valid()) return fd;
    if (errno == EINTR || errno == ECONNABORTED) continue;
    if (errno != EAGAIN) return errno_error("accept");
    auto w = wait_fd(listen_fd, POLLIN, deadline);
    if (!w) return w.error();
  }
}

}  // namespace wire::transport
