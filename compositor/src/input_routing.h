// Where a viewer's input goes: to the surface under the pointer, the one a
// button is held over, or the focused one, at that surface's own pixels.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "comp/input.h"
#include "layout.h"

namespace comp {

struct Routed {
  SurfaceKey key;
  InputEvent event;
};

struct Hit {
  SurfaceKey key;
  int32_t x = 0, y = 0;  // in the surface's pixels
};

// Pointer buttons, focus and where input goes (RFB semantics: one event
// carries the position and the state of every button).
class InputState {
 public:
  void pointer(const Layout& layout, int32_t x, int32_t y, uint32_t mask, std::vector<Routed>* out);
  void key(const Layout& layout, uint32_t keysym, bool pressed, std::vector<Routed>* out) const;
  void forget(SurfaceKey key);

  std::optional<SurfaceKey> focused() const { return focus_; }

 private:
  void move(const Hit& to, std::vector<Routed>* out);

  uint32_t buttons_ = 0;
  std::optional<SurfaceKey> grab_;  // while buttons are held: the surface they were pressed on
  std::optional<SurfaceKey> focus_;
  std::optional<Hit> last_motion_;
  std::map<SurfaceKey, Hit> positions_;  // the pointer's last place in each surface, for keys
};

}  // namespace comp
