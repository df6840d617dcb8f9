#include "tls_channel.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "socket_stream.h"

namespace wire::transport {
namespace {

// TLS 1.3 only, PSK with ephemeral key exchange only (psk_dhe_ke): no
// certificates, no plain-PSK mode without forward secrecy, no resumption.
// An external PSK is bound to SHA-256 (RFC 8446 4.2.11), which rules out
// AES-256-GCM-SHA384; NORMAL would then pick ChaCha20-Poly1305, at about a
// fifth of AES-128-GCM's speed on CPUs with AES instructions.
constexpr char kPriorities[] =
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:-KX-ALL:+ECDHE-PSK:+DHE-PSK:-CIPHER-ALL:+AES-128-GCM:"
    "+CHACHA20-POLY1305";
constexpr char kPskIdentity[] = "conduit";
constexpr std::string_view kKdfSalt = "conduit link tls13 psk v1";
constexpr unsigned kKdfIterations = 100000;

constexpr size_t kRecordBytes = 16384;  // TLS's largest record payload
constexpr size_t kReadChunk = 256 * 1024;

Error tls_error(Errc code, const std::string& what, int rc) {
  return make_error(code, what + ": " + gnutls_strerror(rc));
}

class TlsChannel final : public SocketChannel {
 public:
  TlsChannel(Fd fd, const TlsKey& key, std::string description, const TransportOptions& opts)
      : SocketChannel(std::move(fd), std::move(description), opts), key_(key), in_(kReadChunk) {}

  ~TlsChannel() override {
    if (session_) gnutls_deinit(session_);
    if (client_creds_) gnutls_psk_free_client_credentials(client_creds_);
    if (server_creds_) gnutls_psk_free_server_credentials(server_creds_);
  }

  Status handshake(TlsRole role, const Deadline& deadline);

  Status send(std::span<const std::byte> message) override;

 private:
  static int server_key(gnutls_session_t session, const char* identity, gnutls_datum_t* key);
  static ssize_t pull(gnutls_transport_ptr_t self, void* data, size_t size);
  static int pull_timeout(gnutls_transport_ptr_t self, unsigned ms);
  Status set_up(TlsRole role);
  Error handshake_error(TlsRole role, int rc);
  Status write_records(std::span<const std::byte> data, const Deadline& deadline);
  Result<size_t> read_some(std::span<std::byte> out) override;

  TlsKey key_;

  // One thread sends while another receives (the Channel contract), and a
  // TLS session is one state machine: every GnuTLS call on it holds this
  // lock. Calls never block inside it (the socket is non-blocking); waits
  // for the socket happen outside.
  std::mutex session_mu_;
  gnutls_session_t session_ = nullptr;
  gnutls_psk_client_credentials_t client_creds_ = nullptr;
  gnutls_psk_server_credentials_t server_creds_ = nullptr;

  // Ciphertext read from the socket ahead of GnuTLS, which asks for each
  // record's header and body apart: one recv serves many records.
  std::vector<std::byte> in_;
  size_t in_begin_ = 0;
  size_t in_end_ = 0;

  // Send side: the first record carries the length prefix with the
  // message's start, so a small message is one record, not two.
  std::array<std::byte, kRecordBytes> first_record_{};
};

int TlsChannel::server_key(gnutls_session_t session, const char* identity, gnutls_datum_t* key) {
  const auto* self = static_cast<const TlsChannel*>(gnutls_session_get_ptr(session));
  if (!self || std::strcmp(identity, kPskIdentity) != 0) return -1;
  key->data = static_cast<unsigned char*>(gnutls_malloc(self->key_.size()));
  if (!key->data) return -1;
  std::memcpy(key->data, self->key_.data(), self->key_.size());
  key->size = static_cast<unsigned>(self->key_.size());
  return 0;
}

ssize_t TlsChannel::pull(gnutls_transport_ptr_t p, void* data, size_t size) {
  auto* self = static_cast<TlsChannel*>(p);
  if (self->in_begin_ == self->in_end_) {
    ssize_t n = ::recv(self->fd_.get(), self->in_.data(), self->in_.size(), 0);
    if (n <= 0) {
      if (n < 0) gnutls_transport_set_errno(self->session_, errno);
      return n;
    }
    self->in_begin_ = 0;
    self->in_end_ = static_cast<size_t>(n);
  }
  const size_t take = std::min(size, self->in_end_ - self->in_begin_);
  std::memcpy(data, self->in_.data() + self->in_begin_, take);
  self->in_begin_ += take;
  return static_cast<ssize_t>(take);
}

// Whether bytes wait, those read ahead included (the default would take our
// pointer for a descriptor).
int TlsChannel::pull_timeout(gnutls_transport_ptr_t p, unsigned ms) {
  auto* self = static_cast<TlsChannel*>(p);
  if (self->in_begin_ != self->in_end_) return 1;
  pollfd pfd{self->fd_.get(), POLLIN, 0};
  const int timeout = ms == GNUTLS_INDEFINITE_TIMEOUT ? -1 : static_cast<int>(ms);
  return ::poll(&pfd, 1, timeout);
}

Status TlsChannel::set_up(TlsRole role) {
  const bool client = role == TlsRole::kClient;
  int rc = gnutls_init(&session_, (client ? GNUTLS_CLIENT : GNUTLS_SERVER) | GNUTLS_NONBLOCK |
                                      GNUTLS_NO_SIGNAL | GNUTLS_NO_TICKETS);
  if (rc < 0) return tls_error(Errc::kIo, "gnutls_init", rc);
  gnutls_session_set_ptr(session_, this);
  const char* bad = nullptr;
  rc = gnutls_priority_set_direct(session_, kPriorities, &bad);
  if (rc < 0) return tls_error(Errc::kIo, "TLS priorities", rc);
  gnutls_datum_t key{key_.data(), static_cast<unsigned>(key_.size())};
  if (client) {
    rc = gnutls_psk_allocate_client_credentials(&client_creds_);
    if (rc >= 0) {
      rc = gnutls_psk_set_client_credentials(client_creds_, kPskIdentity, &key,
                                             GNUTLS_PSK_KEY_RAW);
    }
    if (rc >= 0) rc = gnutls_credentials_set(session_, GNUTLS_CRD_PSK, client_creds_);
  } else {
    rc = gnutls_psk_allocate_server_credentials(&server_creds_);
    if (rc >= 0) {
      gnutls_psk_set_server_credentials_function(server_creds_, server_key);
      rc = gnutls_credentials_set(session_, GNUTLS_CRD_PSK, server_creds_);
    }
  }
  if (rc < 0) return tls_error(Errc::kIo, "TLS credentials", rc);
  gnutls_transport_set_ptr2(session_, this,
                            reinterpret_cast<gnutls_transport_ptr_t>(intptr_t{fd_.get()}));
  gnutls_transport_set_pull_function(session_, pull);
  gnutls_transport_set_pull_timeout_function(session_, pull_timeout);
  return {};
}

Error TlsChannel::handshake_error(TlsRole role, int rc) {
  if (rc == GNUTLS_E_PREMATURE_TERMINATION || rc == GNUTLS_E_PUSH_ERROR ||
      rc == GNUTLS_E_PULL_ERROR) {
    return tls_error(Errc::kClosed, "TLS handshake: the peer went away", rc);
  }
  if (role == TlsRole::kClient && rc == GNUTLS_E_FATAL_ALERT_RECEIVED) {
    const char* alert = gnutls_alert_get_name(gnutls_alert_get(session_));
    return make_error(Errc::kBadValue, std::string("the host refused the TLS handshake (") +
                                           (alert ? alert : "alert") +
                                           "): the token differs from the host's");
  }
  // GnuTLS leaves telling the peer to us; the client then knows it was refused.
  (void)gnutls_alert_send_appropriate(session_, rc);
  // A key from another token fails the PSK binder check (RFC 8446 4.2.11).
  if (role == TlsRole::kServer &&
      (rc == GNUTLS_E_RECEIVED_ILLEGAL_PARAMETER || rc == GNUTLS_E_DECRYPTION_FAILED)) {
    return make_error(Errc::kBadValue, "refused the TLS handshake: the guest's token differs "
                                       "from ours (" + std::string(gnutls_strerror(rc)) + ")");
  }
  return tls_error(Errc::kBadValue, "TLS handshake", rc);
}

Status TlsChannel::handshake(TlsRole role, const Deadline& deadline) {
  WIRE_TRY(set_up(role));
  for (;;) {
    int rc = gnutls_handshake(session_);
    if (rc == GNUTLS_E_SUCCESS) return {};
    if (rc == GNUTLS_E_AGAIN || rc == GNUTLS_E_INTERRUPTED) {
      short events = gnutls_record_get_direction(session_) ? POLLOUT : POLLIN;
      auto w = wait_fd(fd_.get(), events, deadline);
      if (!w) {
        Error e = w.error();
        if (e.code == Errc::kTimeout) e.detail = "TLS handshake did not finish in time";
        return e;
      }
      continue;
    }
    if (!gnutls_error_is_fatal(rc)) continue;
    return handshake_error(role, rc);
  }
}

Status TlsChannel::write_records(std::span<const std::byte> data, const Deadline& deadline) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n;
    {
      std::lock_guard lock(session_mu_);
      n = gnutls_record_send(session_, data.data() + done, data.size() - done);
    }
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    // GnuTLS keeps the encrypted record and wants the same call again once
    // the socket takes more.
    if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED) {
      auto w = wait_fd(fd_.get(), POLLOUT, deadline);
      if (!w) return w.error();
      continue;
    }
    return tls_error(n == GNUTLS_E_PUSH_ERROR ? Errc::kClosed : Errc::kIo, "TLS send",
                     static_cast<int>(n));
  }
  return {};
}

Status TlsChannel::send(std::span<const std::byte> message) {
  WIRE_TRY(check_send(message));
  const uint32_t prefix = static_cast<uint32_t>(message.size());
  const size_t head = std::min(message.size(), kRecordBytes - kLengthPrefix);
  std::memcpy(first_record_.data(), &prefix, kLengthPrefix);
  if (head) std::memcpy(first_record_.data() + kLengthPrefix, message.data(), head);
  Deadline deadline(io_timeout_);
  auto st = write_records({first_record_.data(), kLengthPrefix + head}, deadline);
  if (st) st = write_records(message.subspan(head), deadline);
  // A record GnuTLS holds half-sent cannot be taken back: any failure,
  // timeouts included, leaves the stream unusable.
  if (!st) tx_error_ = st.error();
  return st;
}

Result<size_t> TlsChannel::read_some(std::span<std::byte> out) {
  for (;;) {
    ssize_t n;
    {
      std::lock_guard lock(session_mu_);
      n = gnutls_record_recv(session_, out.data(), out.size());
    }
    if (n > 0) return static_cast<size_t>(n);
    if (n == 0 || n == GNUTLS_E_PREMATURE_TERMINATION) {
      return make_error(Errc::kClosed, "peer closed the connection");
    }
    // GnuTLS reports a stream that ends inside a record (a peer killed while
    // the socket held part of one) as a short packet: the peer is gone all
    // the same, as a plain socket would say.
    if (n == GNUTLS_E_UNEXPECTED_PACKET_LENGTH) {
      return make_error(Errc::kClosed, "peer closed the connection inside a TLS record");
    }
    // Only once GnuTLS found the socket empty is waiting on it right: a
    // record it already read may be waiting inside it.
    if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED) return size_t{0};
    if (!gnutls_error_is_fatal(static_cast<int>(n))) continue;
    return tls_error(n == GNUTLS_E_PULL_ERROR ? Errc::kClosed : Errc::kIo, "TLS receive",
                     static_cast<int>(n));
  }
}

}  // namespace

Result<TlsKey> derive_tls_key(std::string_view token) {
  if (token.empty()) return make_error(Errc::kBadValue, "TLS needs a token");
  TlsKey key{};
  gnutls_datum_t secret{reinterpret_cast<unsigned char*>(const_cast<char*>(token.data())),
                        static_cast<unsigned>(token.size())};
  gnutls_datum_t salt{reinterpret_cast<unsigned char*>(const_cast<char*>(kKdfSalt.data())),
                      static_cast<unsigned>(kKdfSalt.size())};
  int rc = gnutls_pbkdf2(GNUTLS_MAC_SHA256, &secret, &salt, kKdfIterations, key.data(), key.size());
  if (rc < 0) return tls_error(Errc::kIo, "deriving the TLS key", rc);
  return key;
}

Result<std::unique_ptr<Channel>> open_tls_channel(Fd fd, TlsRole role, const TlsKey& key,
                                                  std::string description,
                                                  const TransportOptions& opts,
                                                  const Deadline& deadline) {
  auto ch = std::make_unique<TlsChannel>(std::move(fd), key, std::move(description), opts);
  WIRE_TRY(ch->handshake(role, deadline));
  std::unique_ptr<Channel> out = std::move(ch);
  return out;
}

}  // namespace wire::transport
