// The composing thread's drawing, apart from the compositor's shared state:
// it works on copies, so callers and viewers never wait for a composition.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "comp/compositor.h"
#include "comp/frame_board.h"
#include "labels.h"
#include "layout.h"

namespace comp {

class BlockDamage;

struct BoardRef {
  SurfaceKey key;
  std::shared_ptr<FrameBoardReader> board;
};

// A surface's newest frame as the composing thread last copied it.
struct Source {
  std::shared_ptr<FrameBoardReader> board;  // which board it came from
  std::vector<uint32_t> pixels;             // 0x00RRGGBB; empty before the first frame
  FrameStamp stamp;
  bool fresh = false;  // taken but not drawn yet
};

// Everything the composing thread owns: copies of the newest frames and the
// picture it draws them into. Only that thread touches it, without a lock.
class Composer {
 public:
  void set_layout(Layout layout);

  // Drains every doorbell and copies the newest frame of each shown surface.
  void pull(const std::vector<BoardRef>& boards);

  // Draws what changed since the last call; `damage` gets the changed
  // rectangles, `full` whether the picture was drawn anew.
  void compose(std::vector<Rect>* damage, bool* full);

  const Canvas& picture() const { return picture_; }

  // The newest frame drawn from `board`, if any.
  const FrameStamp* stamp(SurfaceKey key, const FrameBoardReader* board) const;

 private:
  void rebuild();
  void draw_bar(const Placement& t);
  void draw_tile(const Placement& t, Source* s, BlockDamage* blocks);

  Layout layout_;
  bool rebuild_ = true;
  std::map<SurfaceKey, Source> sources_;
  Canvas picture_;
  LabelPainter painter_;
};

}  // namespace comp
