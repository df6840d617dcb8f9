#include "control_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

constexpr size_t kMaxControlBytes = 64u << 10;

struct Header {
  uint32_t type;
  uint32_t length;
};

wire::Error sys_error(const char* what) {
  return make_error(Errc::kIo, std::string(what) + ": " + std::strerror(errno));
}

void close_all(const std::vector<int>& fds) {
  for (int fd : fds) ::close(fd);
}

// The descriptors a received message carried.
std::vector<int> passed_fds(msghdr& msg) {
  std::vector<int> fds;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    const auto* data = reinterpret_cast<const int*>(CMSG_DATA(c));
    fds.insert(fds.end(), data, data + n);
  }
  return fds;
}

}  // namespace

wire::Result<std::pair<int, int>> control_socket_pair() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) return sys_error("socketpair");
  return std::pair{sv[0], sv[1]};
}

wire::Status send_control(int fd, ControlMsg type, const nlohmann::json& body,
                          const std::vector<int>& fds, bool wait) {
  if (fds.size() > kMaxControlFds) return make_error(Errc::kLimit, "too many descriptors");
  const std::string text = body.dump();
  if (text.size() > kMaxControlBytes) return make_error(Errc::kLimit, "control message too long");
  Header h{static_cast<uint32_t>(type), static_cast<uint32_t>(text.size())};
  iovec iov[2] = {{&h, sizeof h}, {const_cast<char*>(text.data()), text.size()}};
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = 2;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxControlFds)] = {};
  if (!fds.empty()) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  ssize_t n;
  do {
    n = ::sendmsg(fd, &msg, MSG_NOSIGNAL | (wait ? 0 : MSG_DONTWAIT));
  } while (n < 0 && errno == EINTR);
  if (n < 0 && errno == EAGAIN) return make_error(Errc::kTimeout, "peer's queue full");
  if (n < 0) return errno == EPIPE || errno == ECONNRESET ? make_error(Errc::kClosed, "peer gone")
                                                          : sys_error("sendmsg");
  return {};
}

wire::Result<ControlMessage> receive_control(int fd,
                                             std::optional<std::chrono::milliseconds> timeout) {
  pollfd p{fd, POLLIN, 0};
  int ready;
  do {
    ready = ::poll(&p, 1, timeout ? static_cast<int>(timeout->count()) : -1);
  } while (ready < 0 && errno == EINTR);
  if (ready < 0) return sys_error("poll");
  if (ready == 0) return make_error(Errc::kTimeout, "no control message");
  std::vector<char> buf(sizeof(Header) + kMaxControlBytes);
  iovec iov{buf.data(), buf.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxControlFds)];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do {
    n = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n == 0) return make_error(Errc::kClosed, "peer gone");
  if (n < 0) return errno == ECONNRESET ? make_error(Errc::kClosed, "peer gone") : sys_error("recvmsg");
  ControlMessage out;
  out.fds = passed_fds(msg);
  Header h;
  if (static_cast<size_t>(n) < sizeof h || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
    close_all(out.fds);
    return make_error(Errc::kBadLength, "malformed control message");
  }
  std::memcpy(&h, buf.data(), sizeof h);
  if (h.length != static_cast<size_t>(n) - sizeof h) {
    close_all(out.fds);
    return make_error(Errc::kBadLength, "control message length");
  }
  out.type = static_cast<ControlMsg>(h.type);
  out.body = nlohmann::json::parse(buf.begin() + sizeof h, buf.begin() + n, nullptr, false);
  if (out.body.is_discarded()) {
    close_all(out.fds);
    return make_error(Errc::kBadValue, "control message is not JSON");
  }
  return out;
}

}  // namespace host
