// SDL2 input as a VNC viewer sends it (X11 keysyms, the RFB button mask):
// shared by the host window and `conduit view`.
#pragma once

#include <cstdint>

namespace comp {

// The X11 keysym for an SDL keycode (SDL_Keycode), or 0 when it has none:
// the unshifted symbol, as a keyboard's key reports it; the receiving side
// makes the character from the key and the modifiers held, sent too.
uint32_t keysym_for_sdl_keycode(int32_t keycode);

// RFB pointer button mask bits.
constexpr uint32_t kButtonLeft = 1u << 0, kButtonMiddle = 1u << 1, kButtonRight = 1u << 2;
constexpr uint32_t kWheelUp = 1u << 3, kWheelDown = 1u << 4;
constexpr uint32_t kWheelLeft = 1u << 5, kWheelRight = 1u << 6;

// The mask bit of an SDL mouse button (SDL_BUTTON_LEFT...); 0 for others.
uint32_t rfb_button_bit(uint8_t sdl_button);

}  // namespace comp
