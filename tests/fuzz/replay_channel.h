// A channel that hands a session recorded or generated messages in order,
// then reports the guest gone; what the session sends back is dropped. It
// has a blob heap, as the shared-memory transports do, so heap references
// in a stream are resolved and bound-checked like theirs.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "wire/transport.h"

namespace fuzz {

class ReplayChannel final : public wire::Channel {
 public:
  static constexpr size_t kHeapBytes = 64 * 1024;

  explicit ReplayChannel(std::vector<std::vector<std::byte>> messages)
      : messages_(std::move(messages)), heap_(kHeapBytes) {
    for (size_t i = 0; i < heap_.size(); ++i) heap_[i] = static_cast<std::byte>(i % 7);
  }

  wire::Status send(std::span<const std::byte> message) override {
    sent_bytes_ += message.size();
    return {};
  }

  wire::Result<std::span<const std::byte>> receive(std::chrono::milliseconds) override {
    if (next_ == messages_.size()) return wire::make_error(wire::Errc::kClosed, "replay finished");
    return std::span<const std::byte>(messages_[next_++]);
  }

  void release() override {}
  wire::BlobSink* outgoing_heap() override { return nullptr; }
  std::span<const std::byte> incoming_heap() override { return heap_; }
  void close() override {}
  std::string describe() const override { return "replay"; }

 private:
  std::vector<std::vector<std::byte>> messages_;
  std::vector<std::byte> heap_;
  size_t next_ = 0;
  size_t sent_bytes_ = 0;
};

}  // namespace fuzz
