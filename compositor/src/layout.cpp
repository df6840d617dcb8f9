// Tiles in a grid of as many columns as rows (or one more), each column as
// wide as its widest tile but never too narrow for a label.
#include "layout.h"

#include <algorithm>

#include "labels.h"

namespace comp {

namespace {
constexpr int32_t kGap = 4;
constexpr int32_t kMinCellWidth = 160;  // room for a readable label over a tiny surface

// The largest size within the options' tile bounds with the surface's
// shape; a surface that fits already keeps its own size.
FrameSize fit(FrameSize s, const CompositorOptions& o) {
  const uint32_t mw = std::max(o.max_tile_width, 1u), mh = std::max(o.max_tile_height, 1u);
  if (s.width <= mw && s.height <= mh) return s;
  if (uint64_t{s.width} * mh >= uint64_t{s.height} * mw) {
    return {mw, static_cast<uint32_t>(std::max<uint64_t>(1, uint64_t{s.height} * mw / s.width))};
  }
  return {static_cast<uint32_t>(std::max<uint64_t>(1, uint64_t{s.width} * mh / s.height)), mh};
}
}  // namespace

Layout grid_layout(const std::vector<LayoutEntry>& entries, const CompositorOptions& o) {
  const int32_t n = static_cast<int32_t>(entries.size());
  int32_t columns = 1;
  while (columns * columns < n) ++columns;
  const int32_t rows = (n + columns - 1) / columns;
  const int32_t min_width =
      std::min(kMinCellWidth, static_cast<int32_t>(std::max(o.max_tile_width, 1u)));
  std::vector<FrameSize> fitted;
  std::vector<int32_t> column_width(columns, 0), row_height(rows, 0);
  for (int32_t i = 0; i < n; ++i) {
    fitted.push_back(fit(entries[i].size, o));
    auto& w = column_width[i % columns];
    auto& h = row_height[i / columns];
    w = std::max({w, min_width, static_cast<int32_t>(fitted[i].width)});
    h = std::max(h, kLabelHeight + static_cast<int32_t>(fitted[i].height));
  }
  std::vector<int32_t> left(columns, 0), top(rows, 0);
  for (int32_t c = 1; c < columns; ++c) left[c] = left[c - 1] + column_width[c - 1] + kGap;
  for (int32_t r = 1; r < rows; ++r) top[r] = top[r - 1] + row_height[r - 1] + kGap;
  Layout layout;
  layout.width = static_cast<uint32_t>(left.back() + column_width.back());
  layout.height = static_cast<uint32_t>(top.back() + row_height.back());
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = left[i % columns], y = top[i / columns];
    const int32_t cell_width = std::max(min_width, static_cast<int32_t>(fitted[i].width));
    layout.tiles.push_back({entries[i].key,
                            {x, y + kLabelHeight, static_cast<int32_t>(fitted[i].width),
                             static_cast<int32_t>(fitted[i].height)},
                            {x, y, cell_width, kLabelHeight},
                            entries[i].caption,
                            entries[i].size});
  }
  return layout;
}

Layout alone_layout(const LayoutEntry& e) {
  const Rect frame{0, 0, static_cast<int32_t>(e.size.width), static_cast<int32_t>(e.size.height)};
  return {e.size.width, e.size.height, {{e.key, frame, {}, {}, e.size}}};
}

Layout empty_layout(const CompositorOptions& o) {
  return {std::max(o.empty_width, 1u), std::max(o.empty_height, 1u), {}};
}

const Placement* placement_of(const Layout& layout, SurfaceKey key) {
  for (const auto& t : layout.tiles) {
    if (t.key == key) return &t;
  }
  return nullptr;
}

}  // namespace comp
