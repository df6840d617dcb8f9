// tcp:HOST:PORT — TCP with Nagle off (batches are already coalesced). The
// client's link hello says TLS or plaintext; a listener serves one of them
// (TLS unless started insecure) and refuses the other with a reason both
// sides log. Under TLS the token keys the handshake and never crosses.
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstring>

#include <arpa/inet.h>

#include "stream_link.h"
#include "tls_channel.h"
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

std::string peer_address(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return "tcp:?";
  char host[INET6_ADDRSTRLEN] = "?";
  uint16_t port = 0;
  if (ss.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&ss);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
    port = ntohs(in6->sin6_port);
    return "tcp:[" + std::string(host) + "]:" + std::to_string(port);
  }
  const auto* in4 = reinterpret_cast<const sockaddr_in*>(&ss);
  ::inet_ntop(AF_INET, &in4->sin_addr, host, sizeof host);
  port = ntohs(in4->sin_port);
  return "tcp:" + std::string(host) + ":" + std::to_string(port);
}

PeerIdentity identify_tcp(int fd) {
  tune_tcp(fd);
  PeerIdentity peer;
  peer.address = peer_address(fd);
  return peer;
}

Result<std::unique_ptr<Channel>> serve_tls(Fd fd, const PeerIdentity& peer, const TlsKey& key,
                                           const TransportOptions& opts, const Deadline& deadline) {
  auto hello = read_hello(fd.get(), deadline);
  if (!hello) return hello.error();
  if (hello->kind == LinkKind::kStream) {
    return refuse(fd.get(), kLinkNeedsTls,
                  make_error(Errc::kBadValue, "refused a plaintext client: this listener requires "
                                              "TLS (the client runs with CONDUIT_INSECURE=1 or "
                                              "is too old)"),
                  deadline);
  }
  WIRE_TRY(check_hello(fd.get(), *hello, LinkKind::kTls, {}, deadline));
  WIRE_TRY(send_reply(fd.get(), LinkReply{kLinkOk, 0, 0}, {}, deadline));
  return open_tls_channel(std::move(fd), TlsRole::kServer, key, peer.address + " (TLS)", opts,
                          deadline);
}

Result<std::unique_ptr<Channel>> serve_plaintext(Fd fd, const PeerIdentity& peer,
                                                 const TransportOptions& opts,
                                                 const Deadline& deadline) {
  auto hello = read_hello(fd.get(), deadline);
  if (!hello) return hello.error();
  if (hello->kind == LinkKind::kTls) {
    return refuse(fd.get(), kLinkNoTls,
                  make_error(Errc::kBadValue, "refused a TLS client: this listener serves "
                                              "plaintext (--insecure)"),
                  deadline);
  }
  return accept_stream_link(std::move(fd), *hello, peer.address + " (plaintext)", opts, deadline);
}

Result<std::unique_ptr<Channel>> open_tls(Fd fd, const Address& a, const TransportOptions& opts,
                                          const Deadline& deadline) {
  if (opts.token.empty()) {
    return make_error(Errc::kBadValue, a.describe() + " needs a token: set CONDUIT_TOKEN_FILE or "
                                                     "CONDUIT_TOKEN to the host's");
  }
  auto key = derive_tls_key(opts.token);
  if (!key) return key.error();
  WIRE_TRY(send_hello(fd.get(), LinkKind::kTls, {}, deadline));
  auto reply = read_reply(fd.get(), {}, deadline);
  if (!reply) return reply.error();
  return open_tls_channel(std::move(fd), TlsRole::kClient, *key, a.describe() + " (TLS)", opts,
                          deadline);
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
    if (!fd) {
      last = fd.error();
      continue;
    }
    auto ch = opts.insecure ? open_stream_channel(std::move(*fd), a.describe() + " (plaintext)", opts)
                            : open_tls(std::move(*fd), a, opts, deadline);
    if (ch) return ch;
    last = ch.error();
    break;
  }
  last.detail = a.describe() + ": " + last.detail;
  return last;
}

Result<std::unique_ptr<Listener>> tcp_listen_channel(const Address& a,
                                                     const TransportOptions& opts) {
  if (opts.token.empty()) {
    return make_error(Errc::kBadValue, a.describe() + ": tcp needs a token (--token-file)");
  }
  StreamHandshake handshake;
  if (opts.insecure) {
    handshake = [opts](Fd fd, const PeerIdentity& peer, const Deadline& deadline) {
      return serve_plaintext(std::move(fd), peer, opts, deadline);
    };
  } else {
    // Derived once: the key function is slow on purpose.
    auto key = derive_tls_key(opts.token);
    if (!key) return key.error();
    handshake = [opts, key = *key](Fd fd, const PeerIdentity& peer, const Deadline& deadline) {
      return serve_tls(std::move(fd), peer, key, opts, deadline);
    };
  }
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
      last = errno_error(("bind " + a.describe()).c_str());
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
    std::unique_ptr<Listener> l = std::make_unique<StreamListener>(
        std::move(fd), actual.describe(), identify_tcp, handshake, opts.io_timeout);
    return l;
  }
  return last;
}

}  // namespace wire::transport
