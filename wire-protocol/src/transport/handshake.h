// The link handshake every socket-based connection starts with: the client
// names the transport it wants and presents a token; the listener answers,
// for shared memory with the region and doorbells attached (SCM_RIGHTS).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "fd.h"

namespace wire::transport {

enum class LinkKind : uint16_t { kStream = 1, kShm = 2 };

struct LinkReply {
  uint32_t status;  // LinkStatus
  uint32_t reserved;
  uint64_t region_bytes;  // shm: size of the shared region
};

enum LinkStatus : uint32_t { kLinkOk = 0, kLinkBadToken = 1, kLinkBadKind = 2 };

Status send_hello(int fd, LinkKind kind, std::string_view token, const Deadline& deadline);

// Reads and checks a client's hello; on a bad token or kind it answers with
// a refusal before returning the error.
Status read_hello(int fd, LinkKind expected_kind, std::string_view expected_token,
                  const Deadline& deadline);

Status send_reply(int fd, const LinkReply& reply, std::span<const int> fds,
                  const Deadline& deadline);
// Reads the listener's answer; a refusal becomes an error. `fds` must all arrive.
Result<LinkReply> read_reply(int fd, std::span<Fd> fds, const Deadline& deadline);

}  // namespace wire::transport
