// tcp:HOST:PORT — TCP with Nagle off (batches are already coalesced) and the
// token checked in the link handshake before any batch is accepted.
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstring>

#include "socket_stream.h"
#include "transports.h"

namespace wire::transport {
namespace {

void tune_tcp(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

struct AddrInfo {
  addrinfo* list = nullptr;
  ~AddrInfo() {
    if (list) freeaddrinfo(list);
  }
};

Status resolve(const Address& a, bool passive, AddrInfo* out) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
  std::string port = std::to_string(a.port);
  int rc = ::getaddrinfo(a.host.empty() ? nullptr : a.host.c_str(), port.c_str(), &hints, &out->list);
  if (rc != 0) return make_error(Errc::kIo, "resolve " + a.host + ": " + gai_strerror(rc));
  return {};
}

std::string endpoint(const Address& a) {
  bool v6 = a.host.find(':') != std::string::npos;
  return "tcp:" + (v6 ? "[" + a.host + "]" : a.host) + ":" + std::to_string(a.port);
}

Result<Fd> connect_one(const addrinfo* ai, const Deadline& deadline) {
  Fd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol));
  if (!fd.valid()) return errno_error("socket");
  if (::connect(fd.get(), ai->ai_addr, ai->ai_addrlen) < 0) {
    if (errno != EINPROGRESS) return errno_error("connect");
    auto w = wait_fd(fd.get(), POLLOUT, deadline);
    if (!w) return w.error();
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) return errno_error("connect", err);
  }
  tune_tcp(fd.get());
  return fd;
}

}  // namespace

Result<std::unique_ptr<Channel>> tcp_connect_channel(const Address& a,
                                                     const TransportOptions& opts) {
  AddrInfo ai;
  WIRE_TRY(resolve(a, false, &ai));
  Deadline deadline(opts.io_timeout);
  Error last = make_error(Errc::kIo, "no address for " + a.host);
  for (addrinfo* p = ai.list; p; p = p->ai_next) {
    auto fd = connect_one(p, deadline);
    if (fd) return open_stream_channel(std::move(*fd), endpoint(a), opts);
    last = fd.error();
  }
  last.detail = endpoint(a) + ": " + last.detail;
  return last;
}

Result<std::unique_ptr<Listener>> tcp_listen_channel(const Address& a,
                                                     const TransportOptions& opts) {
  AddrInfo ai;
  WIRE_TRY(resolve(a, true, &ai));
  Error last = make_error(Errc::kIo, "no address for " + a.host);
  for (addrinfo* p = ai.list; p; p = p->ai_next) {
    Fd fd(::socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, p->ai_protocol));
    if (!fd.valid()) {
      last = errno_error("socket");
      continue;
    }
    int one = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd.get(), p->ai_addr, p->ai_addrlen) < 0 || ::listen(fd.get(), 64) < 0) {
      last = errno_error(("bind " + endpoint(a)).c_str());
      continue;
    }
    // Port 0 asks for any free port; describe() names the one chosen.
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &len);
    Address actual = a;
    actual.port = ntohs(bound.ss_family == AF_INET6
                            ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                            : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    std::unique_ptr<Listener> l =
        std::make_unique<StreamListener>(std::move(fd), endpoint(actual), opts, tune_tcp);
    return l;
  }
  return last;
}

}  // namespace wire::transport
