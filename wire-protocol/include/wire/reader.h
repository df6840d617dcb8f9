// Host side: reads one command's payload, bounds-checking every byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <span>
#include <vector>

#include "wire/format.h"
#include "wire/result.h"

namespace wire {

// A decoded pointer argument. Bytes borrow from the batch, the blob heap or
// a private copy of it (HeapCopies).
struct Data {
  DataKind kind = DataKind::kNull;
  std::span<const std::byte> bytes;  // kInline, kHeap
  uint64_t offset = 0;               // kBufferOffset

  bool is_null() const { return kind == DataKind::kNull; }
  const void* ptr() const { return kind == DataKind::kNull ? nullptr : bytes.data(); }
};

// The peer's blob heap read through private copies. A shared-memory heap
// stays writable by the peer while this side works, so bytes that are
// checked and then used (a string's terminator, index ranges, names) must
// not be read there twice: a reference is copied out when first read, and
// read again (a command decoded twice) it gives the same copy.
class HeapCopies {
 public:
  explicit HeapCopies(std::span<const std::byte> heap) : heap_(heap) {}
  HeapCopies(const HeapCopies&) = delete;
  HeapCopies& operator=(const HeapCopies&) = delete;

  std::span<const std::byte> heap() const { return heap_; }
  // Drops the copies of the previous command (most copy nothing).
  void next_command() {
    if (!copies_.empty()) drop_copies();
  }
  // A copy of heap bytes [offset, offset + size), which the caller checked
  // lie in the heap, referenced at byte `at` of the command. One command's
  // references may copy at most the heap's size: the peer can have no more
  // live data in it.
  Result<std::span<const std::byte>> copy(size_t at, uint64_t offset, uint32_t size);
  // Bytes of storage held for copies (no more than 1 MiB a block between
  // commands).
  size_t kept_bytes() const;

  // Told every heap reference a command reads, with the bytes it reads
  // (the copy, or the heap in place), for a capture of the session. Null:
  // none (one branch per reference).
  using Observer = std::function<void(uint64_t offset, std::span<const std::byte> bytes)>;
  void set_observer(Observer observer) { observer_ = std::move(observer); }
  void observe(uint64_t offset, std::span<const std::byte> bytes) const {
    if (observer_) observer_(offset, bytes);
  }

 private:
  void drop_copies();

  struct Copy {
    size_t at;
    std::span<const std::byte> bytes;
  };
  std::span<const std::byte> heap_;
  std::vector<Copy> copies_;
  std::deque<std::vector<std::byte>> blocks_;  // storage of copies, reused
  size_t blocks_used_ = 0;
  size_t copied_ = 0;  // bytes copied for the current command
  Observer observer_;
};

class Reader {
 public:
  // `payload` is one command without its header; `base` is its byte offset in
  // the batch (for error messages); `heap` is the peer's blob heap, if any,
  // whose bytes Data then borrows (a peer this side trusts).
  Reader(std::span<const std::byte> payload, size_t base,
         std::span<const std::byte> heap = {})
      : data_(payload), base_(base), heap_(heap) {}
  // Reads a hostile peer's command: Data gets private copies of heap bytes
  // (get_data_in_place() excepted). Starts the command's copies in `copies`.
  Reader(std::span<const std::byte> payload, size_t base, HeapCopies& copies)
      : data_(payload), base_(base), heap_(copies.heap()), copies_(&copies) {
    copies.next_command();
  }

  template <typename T>
  Result<T> get() {
    static_assert(std::is_trivially_copyable_v<T>);
    const size_t at = scalar_at(pos_, sizeof(T));
    if (at > data_.size() || data_.size() - at < sizeof(T)) return truncated(sizeof(T));
    T value;
    std::memcpy(&value, data_.data() + at, sizeof(T));
    pos_ = at + sizeof(T);
    return value;
  }

  Result<Data> get_data();
  // Like get_data, but heap bytes are borrowed where they lie even from a
  // hostile peer: only for bytes GL copies as they are and this side never
  // looks at (pixels of an upload, a buffer's contents), where a peer
  // changing them races only with itself.
  Result<Data> get_data_in_place();

  // The next `n` bytes as they lie, or null (and nothing read) when fewer
  // are left or the position is not aligned: for a run of values whose
  // layout from an aligned start the caller knows.
  const std::byte* take(size_t n) {
    if (pos_ % kAlign || pos_ > data_.size() || data_.size() - pos_ < n) return nullptr;
    const std::byte* p = data_.data() + pos_;
    pos_ += n;
    return p;
  }
  size_t offset() const { return base_ + pos_; }
  size_t remaining() const { return pos_ <= data_.size() ? data_.size() - pos_ : 0; }
  // The bytes not read yet, left unread.
  std::span<const std::byte> unread() const { return data_.subspan(data_.size() - remaining()); }

 private:
  Error truncated(size_t wanted) const;
  Result<Data> read_data(bool private_copy);

  std::span<const std::byte> data_;
  size_t pos_ = 0;
  size_t base_;
  std::span<const std::byte> heap_;
  HeapCopies* copies_ = nullptr;
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
  Result<Command> next() {
    if (batch_.size() - pos_ < sizeof(CommandHeader)) return bad_header(true, 0);
    CommandHeader h;
    std::memcpy(&h, batch_.data() + pos_, sizeof h);
    if (h.size < sizeof h || h.size % kAlign != 0 || h.size > batch_.size() - pos_) return bad_header(false, h.size);
    Command cmd{h.opcode, pos_, batch_.subspan(pos_ + sizeof h, h.size - sizeof h)};
    pos_ += h.size;
    return cmd;
  }

 private:
  Error bad_header(bool truncated, uint32_t size) const;
  std::span<const std::byte> batch_;
  size_t pos_ = 0;
};

}  // namespace wire
