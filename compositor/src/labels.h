// The label bar above each tile: who the surface belongs to, drawn with a
// font that fontconfig finds. Without a usable font the bar stays plain.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comp/compositor.h"

namespace comp {

constexpr int32_t kLabelHeight = 20;

// "program (pid N) — guest — surface S"; the guest's own strings are cut
// short so a hostile name cannot make a huge label.
std::string label_text(SurfaceKey key, const SurfaceLabel& label);

// Renders label bars. Not thread-safe: one painter per thread.
class LabelPainter {
 public:
  LabelPainter();
  ~LabelPainter();
  LabelPainter(const LabelPainter&) = delete;
  LabelPainter& operator=(const LabelPainter&) = delete;

  // A bar `width` x kLabelHeight pixels (0x00RRGGBB, top row first) with
  // `text` on it, cut off at the right edge.
  std::vector<uint32_t> render(const std::string& text, int32_t width);

 private:
  struct Font;
  Font* font();  // opened at first use, so a compositor that shows no labels never loads one

  std::unique_ptr<Font> font_;
  bool tried_ = false;
};

}  // namespace comp
