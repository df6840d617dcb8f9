// Showing a picture in an area of another size (a window): as large as
// fits, keeping its shape, centred between black bars; and the way back
// from a point of the area to the picture's pixels.
#pragma once

#include <cstdint>

#include "comp/compositor.h"

namespace comp {

// Where a picture of `width` x `height` is drawn in an area of
// `area_width` x `area_height`. Empty when either is empty.
Rect letterbox(uint32_t width, uint32_t height, int32_t area_width, int32_t area_height);

// A point of the area on the picture shown at `view`: clamped into the
// picture, and whether it was on it (not on a bar).
struct PicturePoint {
  int32_t x = 0, y = 0;
  bool inside = false;
};
PicturePoint to_picture(const Rect& view, uint32_t width, uint32_t height, int32_t x, int32_t y);

}  // namespace comp
