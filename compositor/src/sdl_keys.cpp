#include "comp/sdl_keys.h"

#include <SDL.h>

namespace comp {
namespace {

struct KeyName {
  SDL_Keycode sdl;
  uint32_t keysym;
};

// Keys whose SDL keycode is no character, with their X11 keysyms (keysymdef.h).
constexpr KeyName kKeyNames[] = {
    {SDLK_RETURN, 0xff0d},      {SDLK_ESCAPE, 0xff1b},    {SDLK_BACKSPACE, 0xff08},
    {SDLK_TAB, 0xff09},         {SDLK_DELETE, 0xffff},    {SDLK_INSERT, 0xff63},
    {SDLK_HOME, 0xff50},        {SDLK_LEFT, 0xff51},      {SDLK_UP, 0xff52},
    {SDLK_RIGHT, 0xff53},       {SDLK_DOWN, 0xff54},      {SDLK_PAGEUP, 0xff55},
    {SDLK_PAGEDOWN, 0xff56},    {SDLK_END, 0xff57},       {SDLK_LSHIFT, 0xffe1},
    {SDLK_RSHIFT, 0xffe2},      {SDLK_LCTRL, 0xffe3},     {SDLK_RCTRL, 0xffe4},
    {SDLK_CAPSLOCK, 0xffe5},    {SDLK_LALT, 0xffe9},      {SDLK_RALT, 0xffea},
    {SDLK_LGUI, 0xffeb},        {SDLK_RGUI, 0xffec},      {SDLK_MODE, 0xff7e},
    {SDLK_APPLICATION, 0xff67}, {SDLK_MENU, 0xff67},      {SDLK_PRINTSCREEN, 0xff61},
    {SDLK_SCROLLLOCK, 0xff14},  {SDLK_PAUSE, 0xff13},     {SDLK_NUMLOCKCLEAR, 0xff7f},
    {SDLK_KP_ENTER, 0xff8d},    {SDLK_KP_DIVIDE, 0xffaf}, {SDLK_KP_MULTIPLY, 0xffaa},
    {SDLK_KP_MINUS, 0xffad},    {SDLK_KP_PLUS, 0xffab},   {SDLK_KP_PERIOD, 0xffae},
    {SDLK_KP_EQUALS, 0xffbd},   {SDLK_KP_0, 0xffb0},
};

// SDL numbers these keys in a row, as X11 does.
struct KeyRun {
  SDL_Keycode first, last;
  uint32_t keysym;
};
constexpr KeyRun kKeyRuns[] = {
    {SDLK_F1, SDLK_F12, 0xffbe},
    {SDLK_F13, SDLK_F24, 0xffca},
    {SDLK_KP_1, SDLK_KP_9, 0xffb1},
};

}  // namespace

uint32_t keysym_for_sdl_keycode(int32_t keycode) {
  for (const KeyName& k : kKeyNames) {
    if (k.sdl == keycode) return k.keysym;
  }
  for (const KeyRun& run : kKeyRuns) {
    if (keycode >= run.first && keycode <= run.last)
      return run.keysym + static_cast<uint32_t>(keycode - run.first);
  }
  if (keycode & SDLK_SCANCODE_MASK) return 0;  // a key with no character and no name above
  const auto code = static_cast<uint32_t>(keycode);
  // Latin-1 keysyms are their code points; other characters are Unicode keysyms.
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  if (code > 0xff && code <= 0x10ffff) return 0x01000000 | code;
  return 0;
}

uint32_t rfb_button_bit(uint8_t sdl_button) {
  switch (sdl_button) {
    case SDL_BUTTON_LEFT:
      return kButtonLeft;
    case SDL_BUTTON_MIDDLE:
      return kButtonMiddle;
    case SDL_BUTTON_RIGHT:
      return kButtonRight;
    default:
      return 0;
  }
}

}  // namespace comp
