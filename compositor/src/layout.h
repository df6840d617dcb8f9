// Where each shown surface is on the canvas: labelled tiles in a grid, or
// one surface alone at its own size. Drawing and input routing both read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "comp/compositor.h"
#include "comp/frame_board.h"

namespace comp {

// One shown surface: its pixels on the canvas and its label bar (none when
// it is shown alone).
struct Placement {
  SurfaceKey key;
  Rect frame;
  Rect bar;
  std::string caption;
  FrameSize source;
};

struct Layout {
  uint32_t width = 0, height = 0;
  std::vector<Placement> tiles;
};

struct LayoutEntry {
  SurfaceKey key;
  std::string caption;
  FrameSize size;
};

Layout grid_layout(const std::vector<LayoutEntry>& entries, const CompositorOptions& o);
Layout alone_layout(const LayoutEntry& e);
Layout empty_layout(const CompositorOptions& o);

const Placement* placement_of(const Layout& layout, SurfaceKey key);

}  // namespace comp
