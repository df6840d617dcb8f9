// Pixel work of the composing thread and the viewers: scaling a frame down,
// finding what changed in a tile, and copying rectangles between canvases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "comp/compositor.h"
#include "comp/frame_board.h"

namespace comp {

// Area-averaging downscale: each output pixel is the mean of the source
// pixels it covers, so text and thin lines stay legible.
class BoxScaler {
 public:
  BoxScaler(FrameSize from, FrameSize to);

  // Output row y from the whole source frame.
  const uint32_t* row(const uint32_t* src, uint32_t y);

 private:
  // Boundaries of the source ranges that each output pixel averages.
  static std::vector<uint32_t> spans(uint32_t from, uint32_t to);

  FrameSize from_;
  std::vector<uint32_t> xs_, ys_;
  std::vector<uint32_t> sums_;  // red, green, blue per source column
  std::vector<uint32_t> out_;
};

// Which square blocks of one tile changed, found while copying its rows
// into the picture: a mostly still frame costs a few small rectangles.
class BlockDamage {
 public:
  explicit BlockDamage(Rect tile);

  void copy_row(int32_t y, const uint32_t* src, uint32_t* dst);

  // Runs of changed blocks per band, joined downwards when they line up.
  void append_rects(std::vector<Rect>* out) const;

 private:
  static void add(std::vector<Rect>* out, size_t first, Rect r);

  Rect tile_;
  int32_t columns_;
  std::vector<bool> dirty_;
};

void fill(Canvas* canvas, Rect r, uint32_t colour);

// A frame's bytes as 0x00RRGGBB pixels: its alpha is dropped.
void copy_frame(std::span<const std::byte> bytes, std::vector<uint32_t>* pixels);

// Copies the rectangles `rects` of `from` into `to`, a canvas of its size.
void copy_rects(const Canvas& from, const std::vector<Rect>& rects, Canvas* to);

}  // namespace comp
