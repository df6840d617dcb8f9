// What the host window and `conduit view` share: where a picture goes in a
// window, where a window point is on the picture, and SDL keys as X11 keysyms.
#include <SDL.h>
#include <gtest/gtest.h>

#include "comp/sdl_keys.h"
#include "comp/view_fit.h"

namespace comp {
namespace {

void expect_rect(const Rect& r, int32_t x, int32_t y, int32_t width, int32_t height) {
  EXPECT_EQ(r.x, x);
  EXPECT_EQ(r.y, y);
  EXPECT_EQ(r.width, width);
  EXPECT_EQ(r.height, height);
}

TEST(ViewFit, KeepsThePictureShapeCentredBetweenBars) {
  expect_rect(letterbox(200, 100, 400, 400), 0, 100, 400, 200);  // bars above and below
  expect_rect(letterbox(100, 200, 400, 200), 150, 0, 100, 200);  // bars left and right
  expect_rect(letterbox(640, 480, 640, 480), 0, 0, 640, 480);    // its own size: 1:1
  expect_rect(letterbox(1920, 1080, 1280, 720), 0, 0, 1280, 720);
  expect_rect(letterbox(0, 100, 400, 400), 0, 0, 0, 0);
  expect_rect(letterbox(100, 100, 0, 400), 0, 0, 0, 0);
}

TEST(ViewFit, PointsOfTheAreaLandOnThePicture) {
  const Rect view = letterbox(200, 100, 400, 400);  // drawn at 2x, from y = 100
  PicturePoint p = to_picture(view, 200, 100, 200, 200);
  EXPECT_TRUE(p.inside);
  EXPECT_EQ(p.x, 100);
  EXPECT_EQ(p.y, 50);
  p = to_picture(view, 200, 100, 0, 0);  // on the bar above
  EXPECT_FALSE(p.inside);
  EXPECT_EQ(p.x, 0);
  EXPECT_EQ(p.y, 0);
  p = to_picture(view, 200, 100, 399, 399);  // on the bar below: clamped
  EXPECT_FALSE(p.inside);
  EXPECT_EQ(p.x, 199);
  EXPECT_EQ(p.y, 99);
  EXPECT_FALSE(to_picture(Rect{}, 200, 100, 10, 10).inside);
}

TEST(SdlKeys, KeysAreTheirX11Keysyms) {
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_a), 0x61u);  // unshifted
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_SPACE), 0x20u);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_RETURN), 0xff0du);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_ESCAPE), 0xff1bu);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_BACKSPACE), 0xff08u);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_DELETE), 0xffffu);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_LEFT), 0xff51u);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_F1), 0xffbeu);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_F12), 0xffc9u);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_KP_5), 0xffb5u);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_LSHIFT), 0xffe1u);
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_PAGEDOWN), 0xff56u);
  EXPECT_EQ(keysym_for_sdl_keycode(0xe9), 0xe9u);             // é: Latin-1
  EXPECT_EQ(keysym_for_sdl_keycode(0x20ac), 0x010020acu);     // €: a Unicode keysym
  EXPECT_EQ(keysym_for_sdl_keycode(SDLK_MUTE), 0u);           // no keysym sent
}

TEST(SdlKeys, ButtonsAreRfbMaskBits) {
  EXPECT_EQ(rfb_button_bit(SDL_BUTTON_LEFT), 1u);
  EXPECT_EQ(rfb_button_bit(SDL_BUTTON_MIDDLE), 2u);
  EXPECT_EQ(rfb_button_bit(SDL_BUTTON_RIGHT), 4u);
  EXPECT_EQ(rfb_button_bit(SDL_BUTTON_X1), 0u);
}

}  // namespace
}  // namespace comp
