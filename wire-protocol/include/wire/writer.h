// Guest side: appends commands to a growing batch buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "wire/format.h"

namespace wire {

// Where large payloads go instead of the ring (the shared blob heap).
class BlobSink {
 public:
  virtual ~BlobSink() = default;
  // Copies data into the heap; returns false when the heap cannot take it
  // (the writer then sends the bytes inline).
  virtual bool put(std::span<const std::byte> data, uint64_t* offset) = 0;
  virtual size_t threshold() const = 0;  // smallest payload worth a heap copy
};

class Writer {
 public:
  Writer() { buf_.reserve(64 * 1024); }

  void set_blob_sink(BlobSink* sink) { blob_sink_ = sink; }

  // Starts a command with room for its fixed part; returns the command start.
  size_t begin(uint32_t opcode) {
    size_t start = buf_.size();
    CommandHeader h{opcode, 0};
    append(&h, sizeof h);
    return start;
  }

  // Pads and patches the size of the command started at `start`.
  void end(size_t start) {
    buf_.resize(align_up(buf_.size()), std::byte{0});
    uint32_t size = static_cast<uint32_t>(buf_.size() - start);
    std::memcpy(buf_.data() + start + offsetof(CommandHeader, size), &size, sizeof size);
    ++commands_;
  }

  // Scalars at natural size, aligned to min(size, 4) from the batch start.
  template <typename T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    constexpr size_t a = sizeof(T) < kAlign ? sizeof(T) : kAlign;
    buf_.resize((buf_.size() + a - 1) & ~(a - 1), std::byte{0});
    append(&value, sizeof value);
  }

  // A pointer argument's bytes: null, inline, or through the blob heap.
  void put_data(const void* data, size_t size);
  // A pointer argument that is an offset into a bound buffer object.
  void put_buffer_offset(uint64_t offset);

  std::span<const std::byte> bytes() const { return buf_; }
  size_t size() const { return buf_.size(); }
  uint32_t commands() const { return commands_; }
  void clear() {
    buf_.clear();
    commands_ = 0;
  }

 private:
  void append(const void* p, size_t n) {
    size_t at = buf_.size();
    buf_.resize(at + n);
    if (n) std::memcpy(buf_.data() + at, p, n);
  }

  std::vector<std::byte> buf_;
  uint32_t commands_ = 0;
  BlobSink* blob_sink_ = nullptr;
};

}  // namespace wire
