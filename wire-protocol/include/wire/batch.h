// Batch framing and streaming zstd compression, one encoder and one decoder
// per connection and direction. The zstd contexts live as long as the
// connection, so later batches compress against the history of earlier ones;
// a decoder must therefore see every batch its encoder produced, in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "wire/format.h"
#include "wire/result.h"

namespace wire {

enum class Compression : uint8_t {
  kOff,   // never compress (local shared memory where bandwidth is plentiful)
  kFast,  // compress every non-empty batch at zstd's fastest useful level
  kAuto,  // compress batches big enough to gain, back off while they do not
};

class Channel;  // wire/transport.h

// How a side compresses what it sends over `channel`: not at all over shared
// memory (a batch is copied once into the ring; compressing it costs more
// than the copy and holds back the peer), adaptively over sockets.
Compression compression_for(Channel& channel);

struct BatchStats {
  uint64_t batches = 0;
  uint64_t compressed_batches = 0;
  uint64_t raw_bytes = 0;   // command bytes handed in
  uint64_t wire_bytes = 0;  // payload bytes produced (headers excluded)
};

class BatchEncoder {
 public:
  explicit BatchEncoder(Compression mode = Compression::kAuto, int level = 1);
  ~BatchEncoder();
  BatchEncoder(const BatchEncoder&) = delete;
  BatchEncoder& operator=(const BatchEncoder&) = delete;

  // Frames `commands` (the bytes of a wire::Writer) as BatchHeader + payload.
  // `flags` may carry kBatchWantsReply; kBatchCompressed is decided here.
  // The returned span stays valid until the next encode().
  Result<std::span<const std::byte>> encode(std::span<const std::byte> commands,
                                            uint16_t flags = 0);

  Compression mode() const { return mode_; }
  void set_mode(Compression mode) { mode_ = mode; }
  const BatchStats& stats() const { return stats_; }

  // Auto mode compresses batches of at least this many bytes.
  static constexpr size_t kAutoMinBytes = 256;

 private:
  bool should_compress(size_t raw_size) const;
  void remember(size_t raw_size, size_t wire_size);

  struct Zstd;
  std::unique_ptr<Zstd> zstd_;
  Compression mode_;
  std::vector<std::byte> out_;
  BatchStats stats_;
  // Auto mode: batches still to skip after compression did not pay.
  uint32_t skip_left_ = 0;
  uint32_t skip_next_ = 0;
};

class BatchDecoder {
 public:
  // Batches whose raw_size exceeds `max_raw_size` are refused.
  explicit BatchDecoder(size_t max_raw_size);
  ~BatchDecoder();
  BatchDecoder(const BatchDecoder&) = delete;
  BatchDecoder& operator=(const BatchDecoder&) = delete;

  struct Batch {
    uint16_t flags;
    // The decompressed commands; valid until the next decode(). Always a
    // private copy, so a peer writing into shared memory cannot change bytes
    // that were already validated.
    std::span<const std::byte> commands;
  };

  // Validates one message and returns its commands. After a decompression
  // error the stream history is lost, so every later call fails too.
  // `room`: the most bytes the receiver lets this batch decompress to
  // besides max_raw_size (what its peer may still make it allocate);
  // a larger batch is refused before anything is allocated.
  Result<Batch> decode(std::span<const std::byte> message, size_t room = SIZE_MAX);
  // Frees the buffer of the last batch if it holds more than `keep` bytes,
  // so a large batch holds its memory only while it runs.
  void trim(size_t keep);

 private:
  Status decompress(std::span<const std::byte> in, size_t raw_size);
  void reserve(size_t bytes);

  struct Zstd;
  std::unique_ptr<Zstd> zstd_;
  size_t max_raw_size_;
  // Pages of their own (mmap), never cleared, whatever the allocator would
  // do with a large block: only the pages decompression writes are
  // committed, so a header that claims more than its payload holds costs no
  // memory.
  struct Unmap {
    size_t bytes;
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte[], Unmap> out_{nullptr, Unmap{0}};
  size_t out_capacity_ = 0;
  bool broken_ = false;
};

}  // namespace wire
