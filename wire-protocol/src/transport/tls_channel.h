// TLS 1.3 over a TCP socket (GnuTLS), authenticated both ways by an
// external pre-shared key derived from the token: each side proves it knows
// the token without sending it, ephemeral (EC)DHE gives forward secrecy, and
// fresh handshake randoms make recorded bytes useless for a replay.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fd.h"
#include "wire/transport.h"

namespace wire::transport {

// The PSK both sides derive from the token (PBKDF2-HMAC-SHA256, so that
// guessing a weak token from a recorded handshake is slow).
using TlsKey = std::array<uint8_t, 32>;
Result<TlsKey> derive_tls_key(std::string_view token);

enum class TlsRole { kClient, kServer };

// Runs the TLS handshake on a connected non-blocking socket within the
// deadline and returns a channel carrying length-prefixed messages inside
// TLS records. Errors say which side refused and why.
Result<std::unique_ptr<Channel>> open_tls_channel(Fd fd, TlsRole role, const TlsKey& key,
                                                  std::string description,
                                                  const TransportOptions& opts,
                                                  const Deadline& deadline);

}  // namespace wire::transport
