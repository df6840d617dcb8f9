// Input at canvas coordinates turned into events for one surface each: hit
// tests against the layout, and the button, grab and focus rules.
#include "input_routing.h"

#include <algorithm>
#include <bit>

namespace comp {

namespace {
// Canvas point to surface pixel; `clamp` pulls a point outside the tile
// onto its nearest pixel (a drag that left the surface it began on).
std::optional<Hit> hit_tile(const Placement& t, int32_t x, int32_t y, bool clamp) {
  const Rect& f = t.frame;
  const bool inside = x >= f.x && x < f.x + f.width && y >= f.y && y < f.y + f.height;
  if (!inside && !clamp) return std::nullopt;
  const int64_t cx = std::clamp(x, f.x, f.x + f.width - 1) - f.x;
  const int64_t cy = std::clamp(y, f.y, f.y + f.height - 1) - f.y;
  return Hit{t.key, static_cast<int32_t>(cx * t.source.width / f.width),
             static_cast<int32_t>(cy * t.source.height / f.height)};
}

std::optional<Hit> hit_layout(const Layout& layout, int32_t x, int32_t y) {
  for (const auto& t : layout.tiles) {
    if (auto hit = hit_tile(t, x, y, false)) return hit;
  }
  return std::nullopt;
}
}  // namespace

void InputState::pointer(const Layout& layout, int32_t x, int32_t y, uint32_t mask,
                         std::vector<Routed>* out) {
  std::optional<Hit> target;
  if (buttons_ == 0) {
    target = hit_layout(layout, x, y);
  } else if (grab_) {
    const Placement* t = placement_of(layout, *grab_);
    if (t) target = hit_tile(*t, x, y, true);
  }
  if (target) move(*target, out);
  if (buttons_ == 0 && mask != 0) grab_ = target ? std::optional(target->key) : std::nullopt;
  for (uint32_t changed = buttons_ ^ mask; changed != 0; changed &= changed - 1) {
    const uint32_t bit = static_cast<uint32_t>(std::countr_zero(changed));
    const uint32_t pressed = (mask >> bit) & 1;
    if (!target) continue;
    if (pressed) focus_ = target->key;
    out->push_back(
        {target->key, {InputEvent::Kind::kButton, pressed, bit + 1, target->x, target->y}});
  }
  buttons_ = mask;
  if (buttons_ == 0) grab_.reset();
}

void InputState::key(const Layout& layout, uint32_t keysym, bool pressed,
                     std::vector<Routed>* out) const {
  std::optional<SurfaceKey> target;
  if (focus_ && placement_of(layout, *focus_)) {
    target = focus_;
  } else if (layout.tiles.size() == 1) {
    target = layout.tiles.front().key;
  }
  if (!target) return;
  auto at = positions_.find(*target);
  const Hit pos = at != positions_.end() ? at->second : Hit{*target};
  out->push_back({*target, {InputEvent::Kind::kKey, pressed ? 1u : 0u, keysym, pos.x, pos.y}});
}

void InputState::forget(SurfaceKey key) {
  if (focus_ == key) focus_.reset();
  if (last_motion_ && last_motion_->key == key) last_motion_.reset();
  positions_.erase(key);
}

void InputState::move(const Hit& to, std::vector<Routed>* out) {
  positions_[to.key] = to;
  if (last_motion_ && last_motion_->key == to.key && last_motion_->x == to.x &&
      last_motion_->y == to.y)
    return;
  last_motion_ = to;
  out->push_back({to.key, {InputEvent::Kind::kMotion, 0, 0, to.x, to.y}});
}

}  // namespace comp
