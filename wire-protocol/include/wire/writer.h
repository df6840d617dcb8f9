// Guest side: appends commands to a growing batch buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "wire/format.h"

namespace wire {

// Where large payloads go instead of the ring (the shared blob heap).
class BlobSink {
 public:
  virtual ~BlobSink() = default;
  // Room for `size` bytes in the heap, which the caller fills before the
  // message referring to them is sent; null when the heap cannot take them
  // (the writer then sends the bytes inline).
  virtual std::byte* place(size_t size, uint64_t* offset) = 0;
  // Copies data into the heap; false when the heap cannot take it.
  bool put(std::span<const std::byte> data, uint64_t* offset) {
    std::byte* at = place(data.size(), offset);
    if (at && !data.empty()) std::memcpy(at, data.data(), data.size());
    return at != nullptr;
  }
  virtual size_t threshold() const = 0;  // smallest payload worth a heap copy
};

class Writer {
 public:
  Writer() { reserve(64 * 1024); }

  void set_blob_sink(BlobSink* sink) { blob_sink_ = sink; }

  // Starts a command with room for its fixed part; returns the command start.
  size_t begin(uint32_t opcode) {
    size_t start = size_;
    CommandHeader h{opcode, 0};
    append(&h, sizeof h);
    return start;
  }

  // Pads and patches the size of the command started at `start`.
  void end(size_t start) {
    pad_to(align_up(size_));
    uint32_t size = static_cast<uint32_t>(size_ - start);
    std::memcpy(data_.get() + start + offsetof(CommandHeader, size), &size, sizeof size);
    ++commands_;
  }

  // Scalars at natural size, aligned to min(size, 4) from the batch start.
  template <typename T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    pad_to(scalar_at(size_, sizeof(T)));
    append(&value, sizeof value);
  }

  // `n` zeroed bytes to lay out as put() would from here, or null (nothing
  // written) when here is not aligned.
  std::byte* put_zeroed(size_t n) {
    if (size_ % kAlign) return nullptr;
    std::byte* at = grow(n);
    std::memset(at, 0, n);
    return at;
  }

  // A pointer argument's bytes: null, inline, or through the blob heap.
  void put_data(const void* data, size_t size);
  // The same for `size` bytes the caller writes into the room returned,
  // before anything else is put: one copy where the bytes are made.
  std::span<std::byte> put_data_place(size_t size);
  // A pointer argument that is an offset into a bound buffer object.
  void put_buffer_offset(uint64_t offset);

  std::span<const std::byte> bytes() const { return {data_.get(), size_}; }
  size_t size() const { return size_; }
  uint32_t commands() const { return commands_; }
  void clear() {
    size_ = 0;
    commands_ = 0;
  }

 private:
  // Scalars are copied by size known at compile time, once each.
  void append(const void* p, size_t n) {
    std::byte* at = grow(n);
    if (n) std::memcpy(at, p, n);
  }
  void pad_to(size_t size) {
    if (size <= size_) return;
    const size_t n = size - size_;
    std::memset(grow(n), 0, n);
  }
  // Room for `n` more bytes; where they go.
  std::byte* grow(size_t n) {
    if (capacity_ - size_ < n) reserve(size_ + n);
    std::byte* at = data_.get() + size_;
    size_ += n;
    return at;
  }
  void reserve(size_t wanted);

  std::unique_ptr<std::byte[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  uint32_t commands_ = 0;
  BlobSink* blob_sink_ = nullptr;
};

}  // namespace wire
