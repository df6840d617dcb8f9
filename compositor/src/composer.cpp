// Drawing the picture: anew (background, label bars and tiles) after a
// change of layout, else only the tiles with fresh frames, block by block.
#include "composer.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <span>
#include <utility>

#include "pixels.h"

namespace comp {

namespace {
constexpr uint32_t kBackground = 0x303030;
constexpr uint32_t kNoFrame = 0x000000;
}  // namespace

void Composer::set_layout(Layout layout) {
  layout_ = std::move(layout);
  rebuild_ = true;
}

void Composer::pull(const std::vector<BoardRef>& boards) {
  std::erase_if(sources_, [&](const auto& entry) {
    return std::none_of(boards.begin(), boards.end(),
                        [&](const BoardRef& b) { return b.key == entry.first; });
  });
  for (const auto& b : boards) {
    Source& s = sources_[b.key];
    if (s.board != b.board) s = Source{b.board};  // new, or resized
    b.board->drain_doorbell();
    std::span<const std::byte> bytes;
    FrameStamp stamp;
    if (placement_of(layout_, b.key) && b.board->take(&bytes, &stamp)) {
      copy_frame(bytes, &s.pixels);
      s.stamp = stamp;
      s.fresh = true;
    }
  }
}

void Composer::compose(std::vector<Rect>* damage, bool* full) {
  damage->clear();
  *full = rebuild_;
  if (rebuild_) {
    rebuild();
    damage->push_back(
        {0, 0, static_cast<int32_t>(picture_.width), static_cast<int32_t>(picture_.height)});
    return;
  }
  for (const auto& t : layout_.tiles) {
    auto it = sources_.find(t.key);
    if (it == sources_.end() || !it->second.fresh) continue;
    BlockDamage blocks(t.frame);
    draw_tile(t, &it->second, &blocks);
    blocks.append_rects(damage);
  }
}

const FrameStamp* Composer::stamp(SurfaceKey key, const FrameBoardReader* board) const {
  auto it = sources_.find(key);
  if (it == sources_.end() || it->second.board.get() != board || it->second.pixels.empty())
    return nullptr;
  return &it->second.stamp;
}

void Composer::rebuild() {
  rebuild_ = false;
  picture_.width = layout_.width;
  picture_.height = layout_.height;
  picture_.pixels.assign(size_t{layout_.width} * layout_.height, kBackground);
  for (const auto& t : layout_.tiles) {
    if (t.bar.width > 0) draw_bar(t);
    auto it = sources_.find(t.key);
    if (it == sources_.end() || it->second.pixels.empty()) {
      fill(&picture_, t.frame, kNoFrame);
    } else {
      draw_tile(t, &it->second, nullptr);
    }
  }
}

void Composer::draw_bar(const Placement& t) {
  const std::vector<uint32_t> bar = painter_.render(t.caption, t.bar.width);
  for (int32_t y = 0; y < t.bar.height; ++y) {
    std::memcpy(picture_.pixels.data() + size_t(t.bar.y + y) * picture_.width + t.bar.x,
                bar.data() + size_t(y) * t.bar.width, size_t(t.bar.width) * 4);
  }
}

void Composer::draw_tile(const Placement& t, Source* s, BlockDamage* blocks) {
  s->fresh = false;
  if (s->pixels.size() != t.source.bytes() / 4) return;  // a board replaced under this layout
  const bool scaled = t.frame.width != static_cast<int32_t>(t.source.width);
  std::optional<BoxScaler> scaler;
  if (scaled)
    scaler.emplace(t.source, FrameSize{uint32_t(t.frame.width), uint32_t(t.frame.height)});
  for (int32_t y = 0; y < t.frame.height; ++y) {
    const uint32_t* row = scaled ? scaler->row(s->pixels.data(), uint32_t(y))
                                 : s->pixels.data() + size_t(y) * t.source.width;
    uint32_t* dst = picture_.pixels.data() + size_t(t.frame.y + y) * picture_.width + t.frame.x;
    if (blocks) {
      blocks->copy_row(y, row, dst);
    } else {
      std::memcpy(dst, row, size_t(t.frame.width) * 4);
    }
  }
}

}  // namespace comp
