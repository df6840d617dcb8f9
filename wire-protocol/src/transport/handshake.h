// The link handshake every socket-based connection starts with: the client
// names the link it wants (and, except before TLS, presents the token); the
// listener answers, for shared memory with the region and doorbells
// attached (SCM_RIGHTS). Refusals are answered, so both sides can say why.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "fd.h"

namespace wire::transport {

// kTls: the client sends no token and starts a TLS handshake right after
// its hello; the token keys TLS instead. kStreamHeaps: a unix stream whose
// listener answers with a file of blob heaps attached (stream_heaps.h).
enum class LinkKind : uint16_t { kStream = 1, kShm = 2, kTls = 3, kStreamHeaps = 4 };

struct LinkReply {
  uint32_t status;  // LinkStatus
  uint32_t reserved;
  uint64_t region_bytes;  // shm: and kStreamHeaps: size of the shared region
};

enum LinkStatus : uint32_t {
  kLinkOk = 0,
  kLinkBadToken = 1,
  kLinkBadKind = 2,
  kLinkNeedsTls = 3,        // a plaintext client at a TLS listener
  kLinkNoTls = 4,           // a TLS client at a plaintext (--insecure) listener
  kLinkPeerNotAllowed = 5,  // the client's uid is not on the listener's allow list
};

struct ClientHello {
  LinkKind kind;
  std::string token;
};

Status send_hello(int fd, LinkKind kind, std::string_view token, const Deadline& deadline);

// Reads a client's hello without judging it.
Result<ClientHello> read_hello(int fd, const Deadline& deadline);

// Answers a refusal and returns `why`.
Error refuse(int fd, LinkStatus status, Error why, const Deadline& deadline);

// Checks kind and token (when the listener has one), refusing the client
// when either is wrong.
Status check_hello(int fd, const ClientHello& hello, LinkKind expected_kind,
                   std::string_view expected_token, const Deadline& deadline);

Status send_reply(int fd, const LinkReply& reply, std::span<const int> fds,
                  const Deadline& deadline);
// Reads the listener's answer; a refusal becomes an error that says why.
// `fds` must all arrive.
Result<LinkReply> read_reply(int fd, std::span<Fd> fds, const Deadline& deadline);

}  // namespace wire::transport
