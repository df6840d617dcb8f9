// Messages over a stream socket (unix or TCP, plain or inside TLS): each one
// is preceded by its u32 little-endian length (and, on a unix link with blob
// heaps, its sender's u64 heap mark). Sends are pipelined; receives read
// ahead in large chunks and never trust a length above the configured cap.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "fd.h"
#include "stream_heaps.h"
#include "wire/patience.h"
#include "wire/transport.h"

namespace wire::transport {

inline constexpr size_t kLengthPrefix = sizeof(uint32_t);

// What plain and TLS stream channels share: the framing of received
// messages, closing, and the send-side state; a subclass moves the bytes.
class SocketChannel : public Channel {
 public:
  Result<std::span<const std::byte>> receive(std::chrono::milliseconds timeout) final;
  void release() final;
  BlobSink* outgoing_heap() final { return heaps_ ? heaps_->outgoing() : nullptr; }
  std::span<const std::byte> incoming_heap() final {
    return heaps_ ? heaps_->incoming() : std::span<const std::byte>{};
  }
  MappedFile incoming_file() const final { return heaps_ ? heaps_->incoming_file() : MappedFile{}; }
  void close() final;
  std::string describe() const final { return description_; }
  bool local() const final { return local_; }
  bool patient() const final { return patient_; }
  void set_waker(int fd) final { waker_ = fd; }
  // Waits for the next bytes that went past looking into sleeping on the socket.
  uint64_t sleeps() const { return sleeps_.load(std::memory_order_relaxed); }

 protected:
  SocketChannel(Fd fd, std::string description, const TransportOptions& opts,
                std::unique_ptr<StreamHeaps> heaps = nullptr);

  // Reads what the stream holds now into `out`: the byte count, 0 when it
  // has nothing yet (the caller then waits on the socket), or an error.
  virtual Result<size_t> read_some(std::span<std::byte> out) = 0;

  // Refuses a send on a broken or closed channel, or of an unframeable size.
  Status check_send(std::span<const std::byte> message);
  // What goes before a message of `size` bytes: its length, then the heap mark.
  struct Prefix {
    std::byte bytes[kLengthPrefix + sizeof(uint64_t)];
    size_t size;
  };
  Prefix prefix_for(size_t size) const;

  // Bytes read from the socket but not yet consumed as messages.
  bool has_read_ahead() const { return rx_end_ != rx_begin_ || rx_held_ != 0; }

  Fd fd_;
  std::string description_;
  // From the description, which names the guest's link and travels with a
  // handed-over channel: a TLS guest relayed through a unix socket pair is
  // still one across the network.
  bool local_;
  std::chrono::milliseconds io_timeout_;
  // A send that failed half-way leaves the stream unframed.
  std::optional<Error> tx_error_;
  std::atomic<bool> closed_{false};
  std::unique_ptr<StreamHeaps> heaps_;  // unix links that asked for them

 private:
  size_t prefix_bytes() const { return kLengthPrefix + (heaps_ ? sizeof(uint64_t) : 0); }

  Status fill(size_t wanted, const Deadline& deadline, int waker = -1);
  // Reads what arrives within `look_on`, yielding between looks; false when
  // nothing came (the caller then sleeps on the socket).
  Result<bool> look_for_bytes(Clock::duration look_on, const Deadline& deadline, int waker);
  Error fail_receive(Error e);

  size_t max_message_;
  // Bytes [rx_begin_, rx_end_) of rx_ are read but not consumed; the message
  // last handed out occupies the first rx_held_ of them.
  std::vector<std::byte> rx_;
  size_t rx_begin_ = 0;
  size_t rx_end_ = 0;
  size_t rx_held_ = 0;
  uint64_t rx_held_mark_ = 0;  // the held message's heap mark
  std::optional<Error> rx_error_;  // sticky once the stream is unusable
  int waker_ = -1;
  // A local peer whose messages lately came within a millisecond is waited
  // for by looking (wire/patience.h), which costs less than a wake-up.
  bool patient_;
  Clock::duration typical_wait_ = Patience::kLongest;
  std::atomic<uint64_t> sleeps_{0};
};

class StreamChannel final : public SocketChannel {
 public:
  StreamChannel(Fd fd, std::string description, const TransportOptions& opts,
                std::unique_ptr<StreamHeaps> heaps = nullptr)
      : SocketChannel(std::move(fd), std::move(description), opts, std::move(heaps)) {}

  Status send(std::span<const std::byte> message) override;
  Result<ChannelHandoff> export_handoff() override;

 private:
  Result<size_t> read_some(std::span<std::byte> out) override;
};

}  // namespace wire::transport
