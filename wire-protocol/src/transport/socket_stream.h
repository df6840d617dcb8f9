// Messages over a stream socket (unix or TCP): each one is preceded by its
// u32 little-endian length. Sends are pipelined; receives read ahead in
// large chunks and never trust a length above the configured cap.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "fd.h"
#include "wire/transport.h"

namespace wire::transport {

class StreamChannel final : public Channel {
 public:
  StreamChannel(Fd fd, std::string description, const TransportOptions& opts);

  Status send(std::span<const std::byte> message) override;
  Result<std::span<const std::byte>> receive(std::chrono::milliseconds timeout) override;
  void release() override;
  BlobSink* outgoing_heap() override { return nullptr; }
  std::span<const std::byte> incoming_heap() override { return {}; }
  void close() override;
  std::string describe() const override { return description_; }
  Result<ChannelHandoff> export_handoff() override;

 private:
  Status fill(size_t wanted, const Deadline& deadline);
  Error fail_receive(Error e);

  Fd fd_;
  std::string description_;
  size_t max_message_;
  std::chrono::milliseconds io_timeout_;

  // Receive side: bytes [rx_begin_, rx_end_) of rx_ are read but not consumed;
  // the message last handed out occupies the first rx_held_ of them.
  std::vector<std::byte> rx_;
  size_t rx_begin_ = 0;
  size_t rx_end_ = 0;
  size_t rx_held_ = 0;
  std::optional<Error> rx_error_;  // sticky once the stream is unusable

  // A send that timed out half-way leaves the stream unframed.
  std::optional<Error> tx_error_;
  std::atomic<bool> closed_{false};
};

}  // namespace wire::transport
