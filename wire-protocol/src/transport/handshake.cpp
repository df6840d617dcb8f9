#include "handshake.h"

#include <cstring>
#include <string>
#include <vector>

namespace wire::transport {
namespace {

constexpr uint32_t kLinkMagic = 0x4b4e4c43;  // "CLNK" little-endian
constexpr uint16_t kLinkVersion = 1;
constexpr uint32_t kMaxToken = 256;

struct LinkHello {
  uint32_t magic;
  uint16_t version;
  uint16_t kind;
  uint32_t token_len;
  uint32_t reserved;
};

struct LinkReplyWire {
  uint32_t magic;
  LinkReply reply;
};

// Compares without an early exit, so timing does not reveal a prefix.
bool same_token(std::string_view a, std::string_view b) {
  unsigned diff = a.size() != b.size();
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) diff |= a[i] ^ b[i];
  return diff == 0;
}

template <typename T>
std::span<const std::byte> bytes_of(const T& v) {
  return {reinterpret_cast<const std::byte*>(&v), sizeof v};
}

const char* refusal_reason(uint32_t status) {
  switch (status) {
    case kLinkBadToken:
      return "the host refused the token (set CONDUIT_TOKEN or CONDUIT_TOKEN_FILE to the host's)";
    case kLinkBadKind: return "the host serves another transport at this address";
    case kLinkNeedsTls:
      return "the host requires TLS on tcp: and refused a plaintext connection "
             "(unset CONDUIT_INSECURE)";
    case kLinkNoTls:
      return "the host serves plaintext tcp (started with --insecure) and this client requires "
             "TLS (set CONDUIT_INSECURE=1 to connect without encryption)";
    case kLinkPeerNotAllowed:
      return "the host does not accept connections from this user (conduit host --allow-uid)";
    default: return "the host refused the connection";
  }
}

}  // namespace

Status send_hello(int fd, LinkKind kind, std::string_view token, const Deadline& deadline) {
  if (token.size() > kMaxToken) return make_error(Errc::kBadValue, "token longer than 256 bytes");
  LinkHello h{kLinkMagic, kLinkVersion, static_cast<uint16_t>(kind),
              static_cast<uint32_t>(token.size()), 0};
  std::vector<std::byte> msg(sizeof h + token.size());
  std::memcpy(msg.data(), &h, sizeof h);
  if (!token.empty()) std::memcpy(msg.data() + sizeof h, token.data(), token.size());
  return write_all(fd, msg, deadline);
}

Result<ClientHello> read_hello(int fd, const Deadline& deadline) {
  LinkHello h;
  WIRE_TRY(read_exact(fd, {reinterpret_cast<std::byte*>(&h), sizeof h}, deadline));
  if (h.magic != kLinkMagic) return make_error(Errc::kBadMagic, "not a Conduit client");
  if (h.version != kLinkVersion) {
    return make_error(Errc::kBadVersion, "link version " + std::to_string(h.version));
  }
  if (h.token_len > kMaxToken) {
    return make_error(Errc::kBadLength, "token length " + std::to_string(h.token_len));
  }
  ClientHello hello{static_cast<LinkKind>(h.kind), std::string(h.token_len, '\0')};
  WIRE_TRY(read_exact(fd, {reinterpret_cast<std::byte*>(hello.token.data()), hello.token.size()},
                      deadline));
  return hello;
}

Error refuse(int fd, LinkStatus status, Error why, const Deadline& deadline) {
  LinkReply reply{status, 0, 0};
  (void)send_reply(fd, reply, {}, deadline);
  return why;
}

Status check_hello(int fd, const ClientHello& hello, LinkKind expected_kind,
                   std::string_view expected_token, const Deadline& deadline) {
  if (hello.kind != expected_kind) {
    return refuse(fd, kLinkBadKind,
                  make_error(Errc::kBadValue, "client asked for link kind " +
                                                  std::to_string(static_cast<int>(hello.kind))),
                  deadline);
  }
  // A listener without a token asks for none; a client that brings one
  // (set for another host) is let in.
  if (!expected_token.empty() && !same_token(hello.token, expected_token)) {
    return refuse(fd, kLinkBadToken, make_error(Errc::kBadValue, "client presented a wrong token"),
                  deadline);
  }
  return {};
}

Status send_reply(int fd, const LinkReply& reply, std::span<const int> fds,
                  const Deadline& deadline) {
  LinkReplyWire w{kLinkMagic, reply};
  if (fds.empty()) return write_all(fd, bytes_of(w), deadline);
  return send_with_fds(fd, bytes_of(w), fds, deadline);
}

Result<LinkReply> read_reply(int fd, std::span<Fd> fds, const Deadline& deadline) {
  LinkReplyWire w;
  std::span<std::byte> buf{reinterpret_cast<std::byte*>(&w), sizeof w};
  size_t got = 0;
  if (fds.empty()) {
    WIRE_TRY(read_exact(fd, buf, deadline));
  } else {
    auto r = recv_with_fds(fd, buf, fds, deadline);
    if (!r) return r.error();
    got = *r;
  }
  if (w.magic != kLinkMagic) return make_error(Errc::kBadMagic, "not a Conduit listener");
  if (w.reply.status != kLinkOk) return make_error(Errc::kBadValue, refusal_reason(w.reply.status));
  if (got != fds.size()) {
    return make_error(Errc::kBadValue, "expected " + std::to_string(fds.size()) +
                                           " descriptors, got " + std::to_string(got));
  }
  return w.reply;
}

}  // namespace wire::transport
