// What a live session records into its capture (docs/capture.md): the
// batches as they arrived, the guest's shared-heap bytes each batch read,
// the replies, frames (by hash) and notices the guest received.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/capture_writer.h"

namespace host::capture {

class SessionCapture {
 public:
  // Writes the description record first.
  SessionCapture(std::unique_ptr<Writer> writer, const nlohmann::json& info);
  // Writes the end record.
  ~SessionCapture();

  // One batch: its message is kept until end_batch(), which writes the
  // heap bytes its commands read before it, so that a replay places them
  // first, then the reply the guest received, if it wanted one.
  void begin_batch(std::span<const std::byte> message);
  void heap_read(uint64_t offset, std::span<const std::byte> bytes);
  void end_batch(bool replied, std::span<const std::byte> reply);

  void frame(const wire::Frame& frame, uint64_t hash);
  void to_guest(uint32_t control_op, std::span<const std::byte> payload);

 private:
  struct HeapRead {
    uint64_t offset;
    size_t at;  // in heap_bytes_
    size_t size;
  };
  bool seen(uint64_t offset, std::span<const std::byte> bytes) const;

  std::unique_ptr<Writer> writer_;
  std::vector<std::byte> message_;
  std::vector<HeapRead> heap_reads_;
  std::vector<std::byte> heap_bytes_;
  uint64_t batches_ = 0;
  uint64_t frames_ = 0;
};

}  // namespace host::capture
