// Where a guest meets its host, as one text names it:
//   unix:PATH                       a unix stream socket
//   tcp:HOST:PORT, tcp:[V6]:PORT    TCP (TLS 1.3 keyed from the token)
//   shm:PATH                        shared-memory rings set up over a unix socket
//   shm:file=PATH                   a polled ring in a file (a VM's ivshmem)
//   ivshmem:auto, ivshmem:BDF       that ring as a guest's PCI device
// The one parser of these texts: transports, the host, `conduit` and the
// guest driver all read addresses through it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "wire/result.h"

namespace wire {

struct Address {
  enum class Kind { kUnix, kTcp, kShm, kShmFile, kIvshmem };

  Kind kind = Kind::kUnix;
  std::string path;   // unix, shm: socket path; shm:file=: ring file; ivshmem: auto or BDF
  std::string host;   // tcp, without brackets
  uint16_t port = 0;  // tcp

  // kBadValue, saying what is wrong, for text that names no address.
  static Result<Address> parse(std::string_view text);

  // The text parse() reads back (an IPv6 host in brackets).
  std::string describe() const;
  // tcp: the host as describe() writes it, "tcp:HOST" or "tcp:[V6]".
  std::string describe_host() const;

  // Whether the link stays on this machine (a socket file or shared
  // memory), where moving bytes costs less than compressing them.
  bool is_local() const { return kind != Kind::kTcp; }
};

// Where `conduit host` listens without --listen, and where a guest looks
// when no host is named: unix:$XDG_RUNTIME_DIR/conduit/host.sock, or
// unix:/tmp/conduit-$UID/host.sock without XDG_RUNTIME_DIR.
std::string default_address();

// A guest's host: CONDUIT_HOST when set and not empty, else default_address().
std::string address_from_environment();

}  // namespace wire
