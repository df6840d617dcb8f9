// Keyboard and pointer input from a viewer, on its way to the guest program
// whose surface it was meant for.
#pragma once

#include <cstdint>
#include <functional>

namespace comp {

// Names one guest surface on this host: which renderer (guest program) and
// which of its surfaces.
struct SurfaceKey {
  uint32_t guest = 0;    // the supervisor's guest id
  uint32_t surface = 0;  // the guest's surface id
  auto operator<=>(const SurfaceKey&) const = default;
};

struct InputEvent {
  enum class Kind : uint32_t { kKey = 1, kButton = 2, kMotion = 3 };
  Kind kind = Kind::kMotion;
  uint32_t pressed = 0;  // key and button: 1 down, 0 up
  uint32_t code = 0;     // key: X11 keysym; button: X11 button number (1 left, 2 middle, 3 right, 4/5 wheel)
  int32_t x = 0, y = 0;  // pointer position in the surface's own pixels (every kind)
};

// Where the compositor sends input meant for a guest surface.
using InputRoute = std::function<void(SurfaceKey, const InputEvent&)>;

}  // namespace comp
