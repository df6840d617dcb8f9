#include "comp/view_fit.h"

#include <algorithm>

namespace comp {

Rect letterbox(uint32_t width, uint32_t height, int32_t area_width, int32_t area_height) {
  if (width == 0 || height == 0 || area_width <= 0 || area_height <= 0) return {};
  int64_t w = area_width, h = area_height;
  // Integer arithmetic, so an area of the picture's own size maps 1:1 exactly.
  if (int64_t{area_width} * height <= int64_t{area_height} * width) {
    h = std::max<int64_t>(1, (int64_t{area_width} * height + width / 2) / width);
  } else {
    w = std::max<int64_t>(1, (int64_t{area_height} * width + height / 2) / height);
  }
  return Rect{static_cast<int32_t>((area_width - w) / 2), static_cast<int32_t>((area_height - h) / 2),
              static_cast<int32_t>(w), static_cast<int32_t>(h)};
}

PicturePoint to_picture(const Rect& view, uint32_t width, uint32_t height, int32_t x, int32_t y) {
  if (view.width <= 0 || view.height <= 0 || width == 0 || height == 0) return {};
  PicturePoint p;
  p.inside = x >= view.x && y >= view.y && x < view.x + view.width && y < view.y + view.height;
  const int64_t px = (int64_t{x} - view.x) * width / view.width;
  const int64_t py = (int64_t{y} - view.y) * height / view.height;
  p.x = static_cast<int32_t>(std::clamp<int64_t>(px, 0, int64_t{width} - 1));
  p.y = static_cast<int32_t>(std::clamp<int64_t>(py, 0, int64_t{height} - 1));
  return p;
}

}  // namespace comp
