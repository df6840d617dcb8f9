#include "socket_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "wire/address.h"
#include "wire/handoff.h"

namespace wire::transport {
namespace {

constexpr size_t kReadChunk = 256 * 1024;

// A description that reads as no address ("tcp:... (TLS)") names a link
// across the network.
bool names_local_link(const std::string& description) {
  auto address = Address::parse(description);
  return address && address->is_local();
}

}  // namespace

SocketChannel::SocketChannel(Fd fd, std::string description, const TransportOptions& opts,
                             std::unique_ptr<StreamHeaps> heaps)
    : fd_(std::move(fd)),
      description_(std::move(description)),
      local_(names_local_link(description_)),
      io_timeout_(opts.io_timeout),
      heaps_(std::move(heaps)),
      max_message_(opts.max_message_bytes),
      rx_(kReadChunk),
      patient_(local_ && opts.patient_waits.value_or(Patience::wanted())) {}

Status SocketChannel::check_send(std::span<const std::byte> message) {
  if (tx_error_) return *tx_error_;
  if (closed_) return make_error(Errc::kClosed, "channel closed");
  if (heaps_ && heaps_->error()) {
    tx_error_ = *heaps_->error();
    return *tx_error_;
  }
  if (message.size() > UINT32_MAX) return make_error(Errc::kLimit, "message above 4 GiB");
  return {};
}

SocketChannel::Prefix SocketChannel::prefix_for(size_t size) const {
  Prefix p{{}, prefix_bytes()};
  const uint32_t length = static_cast<uint32_t>(size);
  std::memcpy(p.bytes, &length, kLengthPrefix);
  if (heaps_) {
    const uint64_t mark = heaps_->mark();
    std::memcpy(p.bytes + kLengthPrefix, &mark, sizeof mark);
  }
  return p;
}

Status StreamChannel::send(std::span<const std::byte> message) {
  WIRE_TRY(check_send(message));
  Prefix prefix = prefix_for(message.size());
  iovec iov[2] = {{prefix.bytes, prefix.size},
                  {const_cast<std::byte*>(message.data()), message.size()}};
  size_t total = prefix.size + message.size(), done = 0;
  Deadline deadline(io_timeout_);
  while (done < total) {
    // Skip what is already written, across the two pieces.
    iovec now[2];
    int count = 0;
    size_t skip = done;
    for (auto& piece : iov) {
      if (skip >= piece.iov_len) {
        skip -= piece.iov_len;
        continue;
      }
      now[count++] = {static_cast<char*>(piece.iov_base) + skip, piece.iov_len - skip};
      skip = 0;
    }
    msghdr msg{};
    msg.msg_iov = now;
    msg.msg_iovlen = count;
    ssize_t n = ::sendmsg(fd_.get(), &msg, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    Error e = make_error(Errc::kIo, "send");
    if (n < 0 && errno != EAGAIN) {
      e = errno_error("send");
    } else {
      auto w = wait_fd(fd_.get(), POLLOUT, deadline);
      if (w) continue;
      e = w.error();
    }
    // Nothing written yet: the stream is still framed and a retry may work.
    if (done == 0 && e.code == Errc::kTimeout) return e;
    tx_error_ = e;
    return e;
  }
  return {};
}

Error SocketChannel::fail_receive(Error e) {
  if (e.code != Errc::kTimeout) rx_error_ = e;
  return e;
}

// Reads until at least `wanted` unconsumed bytes are buffered.
Status SocketChannel::fill(size_t wanted, const Deadline& deadline, int waker) {
  if (rx_.size() - rx_begin_ < wanted) {
    std::memmove(rx_.data(), rx_.data() + rx_begin_, rx_end_ - rx_begin_);
    rx_end_ -= rx_begin_;
    rx_begin_ = 0;
    if (rx_.size() < wanted) rx_.resize(std::max(wanted, kReadChunk));
  }
  const auto look_on = patient_ ? Patience::look_on(typical_wait_) : Clock::duration::zero();
  bool looked = false;
  while (rx_end_ - rx_begin_ < wanted) {
    auto n = read_some(std::span(rx_).subspan(rx_end_));
    if (!n) return n.error();
    rx_end_ += *n;
    if (*n > 0) continue;
    if (!looked && look_on > Clock::duration::zero()) {
      looked = true;
      auto came = look_for_bytes(look_on, deadline, waker);
      if (!came) return came.error();
      if (*came) continue;
    }
    sleeps_.fetch_add(1, std::memory_order_relaxed);
    auto w = wait_fd(fd_.get(), POLLIN, deadline, waker);
    if (!w) return w.error();
  }
  return {};
}

Result<bool> SocketChannel::look_for_bytes(Clock::duration look_on, const Deadline& deadline, int waker) {
  const auto until = Clock::now() + look_on;
  while (Clock::now() < until && !deadline.expired()) {
    // One look: the socket and the waker at once, without waiting; the
    // socket is read only once it has something (or hung up).
    pollfd look[2] = {{fd_.get(), POLLIN, 0}, {waker, POLLIN, 0}};
    if (::poll(look, waker >= 0 ? 2 : 1, 0) <= 0) {
      std::this_thread::yield();
      continue;
    }
    if (look[1].revents) return make_error(Errc::kTimeout, "woken");
    auto n = read_some(std::span(rx_).subspan(rx_end_));
    if (!n) return n.error();
    rx_end_ += *n;
    if (*n > 0) return true;
  }
  return false;
}

Result<std::span<const std::byte>> SocketChannel::receive(std::chrono::milliseconds timeout) {
  release();
  if (rx_error_) return *rx_error_;
  if (closed_) return make_error(Errc::kClosed, "channel closed");
  Deadline deadline(timeout);
  // Only between messages may a waker end the wait: a message begun is read whole.
  const size_t prefix = prefix_bytes();
  const auto start = Clock::now();
  auto st = fill(prefix, deadline, waker_);
  if (!st) return fail_receive(st.error());
  typical_wait_ = Patience::smoothed(typical_wait_, Clock::now() - start);
  uint32_t len;
  std::memcpy(&len, rx_.data() + rx_begin_, kLengthPrefix);
  if (heaps_) std::memcpy(&rx_held_mark_, rx_.data() + rx_begin_ + kLengthPrefix, sizeof rx_held_mark_);
  if (len > max_message_) {
    return fail_receive(make_error(Errc::kLimit, "message of " + std::to_string(len) +
                                                     " bytes above limit " +
                                                     std::to_string(max_message_)));
  }
  // The rest of a message whose prefix arrived is waited for with the I/O
  // bound, not the caller's (possibly zero) timeout.
  st = fill(prefix + len, Deadline(std::max(timeout, io_timeout_)));
  if (!st) {
    Error e = st.error();
    if (e.code == Errc::kTimeout) e.detail = "message body did not arrive in time";
    rx_error_ = e;
    return e;
  }
  rx_held_ = prefix + len;
  return std::span<const std::byte>(rx_.data() + rx_begin_ + prefix, len);
}

void SocketChannel::release() {
  if (heaps_ && rx_held_) heaps_->released(rx_held_mark_);
  rx_begin_ += rx_held_;
  rx_held_ = 0;
  if (rx_begin_ == rx_end_) rx_begin_ = rx_end_ = 0;
}

void SocketChannel::close() {
  // shutdown wakes a thread blocked in poll on this socket; the descriptor
  // itself is closed by the destructor, once no call can be using it.
  closed_ = true;
  if (fd_.valid()) ::shutdown(fd_.get(), SHUT_RDWR);
}

Result<size_t> StreamChannel::read_some(std::span<std::byte> out) {
  for (;;) {
    ssize_t n = ::recv(fd_.get(), out.data(), out.size(), 0);
    if (n > 0) return static_cast<size_t>(n);
    if (n == 0) return make_error(Errc::kClosed, "peer closed the connection");
    if (errno == EINTR) continue;
    if (errno == EAGAIN) return size_t{0};
    return errno_error("recv");
  }
}

Result<ChannelHandoff> StreamChannel::export_handoff() {
  // Bytes already read from the socket would be lost to the adopter.
  if (has_read_ahead()) return make_error(Errc::kBadValue, "channel has read ahead");
  if (closed_.exchange(true) || !fd_.valid()) return make_error(Errc::kClosed, "channel closed");
  ChannelHandoff h;
  h.kind = ChannelHandoff::Kind::kStream;
  h.description = description_;
  h.peer_gone = hang_up_probe(fd_.get());
  h.fds.push_back(fd_.release());
  // The adopter's heap positions start at zero, as they are here: the
  // handshake has just ended, and nothing has gone through the heaps yet.
  if (heaps_) {
    const int file = ::fcntl(heaps_->file(), F_DUPFD_CLOEXEC, 0);
    if (file < 0) return errno_error("dup heap region");
    h.fds.push_back(file);
    h.region_bytes = heaps_->region_bytes();
  }
  return h;
}

}  // namespace wire::transport
