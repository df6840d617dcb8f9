// Host side: reads one command's payload, bounds-checking every byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "wire/format.h"
#include "wire/result.h"

namespace wire {

// A decoded pointer argument. Bytes borrow from the batch or the blob heap.
struct Data {
  DataKind kind = DataKind::kNull;
  std::span<const std::byte> bytes;  // kInline, kHeap
  uint64_t offset = 0;               // kBufferOffset

  bool is_null() const { return kind == DataKind::kNull; }
  const void* ptr() const { return kind == DataKind::kNull ? nullptr : bytes.data(); }
};

class Reader {
 public:
  // `payload` is one command without its header; `base` is its byte offset in
  // the batch (for error messages); `heap` is the peer's blob heap, if any.
  Reader(std::span<const std::byte> payload, size_t base,
         std::span<const std::byte> heap = {})
      : data_(payload), base_(base), heap_(heap) {}

  template <typename T>
  Result<T> get() {
    static_assert(std::is_trivially_copyable_v<T>);
    constexpr size_t a = sizeof(T) < kAlign ? sizeof(T) : kAlign;
    size_t at = (pos_ + a - 1) & ~(a - 1);
    if (at > data_.size() || data_.size() - at < sizeof(T)) return truncated(sizeof(T));
    T value;
    std::memcpy(&value, data_.data() + at, sizeof(T));
    pos_ = at + sizeof(T);
    return value;
  }

  Result<Data> get_data();

  size_t offset() const { return base_ + pos_; }
  size_t remaining() const { return pos_ <= data_.size() ? data_.size() - pos_ : 0; }

 private:
  Error truncated(size_t wanted) const;

  std::span<const std::byte> data_;
  size_t pos_ = 0;
  size_t base_;
  std::span<const std::byte> heap_;
};

// Walks the commands of a decompressed batch.
class CommandIterator {
 public:
  explicit CommandIterator(std::span<const std::byte> batch) : batch_(batch) {}

  struct Command {
    uint32_t opcode;
    size_t offset;                      // of the header in the batch
    std::span<const std::byte> payload; // after the header
  };

  bool done() const { return pos_ >= batch_.size(); }
  // Next command, or an error when its header or size does not fit.
  Result<Command> next();

 private:
  std::span<const std::byte> batch_;
  size_t pos_ = 0;
};

}  // namespace wire
