// One surface's newest frames, shared between the renderer that draws them
// and the compositor that shows them: a memfd holding three frame slots and
// an eventfd that rings when one is published. Triple buffering through one
// atomic exchange: the renderer never waits for a viewer, and a viewer always
// takes the newest frame (a slow one skips frames, it never queues them).
//
// The compositor trusts none of it: the region's size is checked against the
// frame size it was told, slot indexes are masked and checked, and pixels are
// only ever copied out. A renderer scribbling over its board garbles its own
// picture, nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "wire/result.h"

namespace comp {

// Frame pixels: BGRA8 (blue in the lowest byte), top row first.
struct FrameSize {
  uint32_t width = 0, height = 0;
  uint32_t stride() const { return width * 4; }
  size_t bytes() const { return size_t{stride()} * height; }
};

// What the renderer stamps on a frame: the guest's frame id and when the
// host finished reading it back (CLOCK_MONOTONIC, for latency figures).
struct FrameStamp {
  uint64_t sequence = 0;  // 1, 2, ... per board
  uint32_t frame_id = 0;
  int64_t published_ns = 0;
};

struct BoardRegion;  // the shared layout, private to frame_board.cpp

// Renderer side.
class FrameBoardWriter {
 public:
  static constexpr uint32_t kMaxSide = 16384;
  static wire::Result<std::unique_ptr<FrameBoardWriter>> create(FrameSize size);
  ~FrameBoardWriter();
  FrameBoardWriter(const FrameBoardWriter&) = delete;
  FrameBoardWriter& operator=(const FrameBoardWriter&) = delete;

  FrameSize size() const { return size_; }
  // Copies `pixels` (size().bytes(), rows of size().stride()) into the free
  // slot, publishes it and rings the doorbell.
  void publish(std::span<const std::byte> pixels, uint32_t frame_id);
  // For the reader: the memfd and the doorbell (still owned here).
  int memory_fd() const { return memory_fd_; }
  int doorbell_fd() const { return doorbell_fd_; }

 private:
  FrameBoardWriter() = default;
  FrameSize size_;
  int memory_fd_ = -1, doorbell_fd_ = -1;
  size_t region_bytes_ = 0;
  BoardRegion* region_ = nullptr;
  uint32_t back_ = 0;  // the slot only this side writes into
  uint64_t sequence_ = 0;
};

// Compositor side.
class FrameBoardReader {
 public:
  // Takes ownership of both descriptors (closed also on failure).
  static wire::Result<std::unique_ptr<FrameBoardReader>> adopt(int memory_fd, int doorbell_fd, FrameSize size);
  ~FrameBoardReader();
  FrameBoardReader(const FrameBoardReader&) = delete;
  FrameBoardReader& operator=(const FrameBoardReader&) = delete;

  FrameSize size() const { return size_; }
  // Readable when a frame was published since the last drain_doorbell().
  int doorbell_fd() const { return doorbell_fd_; }
  void drain_doorbell();
  // The newest frame published since the last take, or nothing. The span
  // stays valid until the next take(); its bytes may still change under a
  // misbehaving renderer, so copy before trusting what they hold.
  bool take(std::span<const std::byte>* pixels, FrameStamp* stamp);

 private:
  FrameBoardReader() = default;
  FrameSize size_;
  int memory_fd_ = -1, doorbell_fd_ = -1;
  size_t region_bytes_ = 0;
  BoardRegion* region_ = nullptr;
  uint32_t front_ = 2;  // the slot only this side reads from
};

}  // namespace comp
