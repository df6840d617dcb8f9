// Every guest surface's newest frame, composed into one picture for the
// host window and the remote viewers: one tile per surface with a label
// (guest and program), or one chosen surface at its own size. A composing
// thread wakes when any surface publishes a frame; viewers take the newest
// composed picture at their own pace and never slow a guest down.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "comp/frame_board.h"
#include "comp/input.h"

namespace comp {

struct SurfaceLabel {
  std::string guest;    // who the guest is: "uid 1000", "tcp:10.0.0.5", a ring file
  std::string program;  // the guest program's name
  uint32_t pid = 0;     // the guest program's process id, in the guest
};

struct Rect {
  int32_t x = 0, y = 0, width = 0, height = 0;
};

// The composed picture: 32-bit pixels 0x00RRGGBB (BGRX in memory), top row first.
struct Canvas {
  uint32_t width = 0, height = 0;
  std::vector<uint32_t> pixels;
};

// Where a surface is on the canvas and what it shows.
struct TileInfo {
  SurfaceKey key;
  SurfaceLabel label;
  Rect frame;             // the surface's pixels on the canvas (scaled into it)
  uint32_t source_width = 0, source_height = 0;
  FrameStamp last;        // the newest frame shown
};

struct CompositorOptions {
  // Tiles larger than this are scaled down to fit, keeping their shape.
  uint32_t max_tile_width = 960, max_tile_height = 720;
  // The canvas when no guest surface exists yet.
  uint32_t empty_width = 640, empty_height = 480;
};

class Compositor {
 public:
  Compositor(CompositorOptions options, InputRoute route);
  ~Compositor();  // stops the composing thread
  Compositor(const Compositor&) = delete;
  Compositor& operator=(const Compositor&) = delete;

  // Any thread. A surface that is added again (a resize) replaces its board.
  void add_surface(SurfaceKey key, SurfaceLabel label, std::unique_ptr<FrameBoardReader> board);
  void remove_surface(SurfaceKey key);
  void remove_guest(uint32_t guest);

  // Every surface as a tile (the default), or only `key` at its own size.
  void show_all();
  void show_only(SurfaceKey key);
  std::optional<SurfaceKey> shown_alone() const;

  // Viewers. Waits up to `timeout` for a picture newer than `*version`,
  // brings `out` up to it and puts the rectangles changed since `*version`
  // into `damage` (the whole canvas when the size changed or `*version` is
  // too old), and advances `*version`. False when nothing newer came. `out`
  // must be left as the last call made it: only the changed rectangles are
  // copied into it.
  bool wait_picture(uint64_t* version, Canvas* out, std::vector<Rect>* damage,
                    std::chrono::milliseconds timeout);
  std::vector<TileInfo> tiles() const;

  // Input at canvas coordinates. A press of a pointer button focuses the
  // surface under it; pointer events go to the surface under the pointer
  // (or to the one a button is held over), keys to the focused surface.
  void pointer(int32_t x, int32_t y, uint32_t button_mask);
  void key(uint32_t keysym, bool pressed);
  std::optional<SurfaceKey> focused() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace comp
