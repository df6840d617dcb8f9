#include "x11/input_injector.h"

#include <X11/keysym.h>

namespace icd {
namespace {

// Events carry the pointer's place on the window and on the root window.
XEvent pointer_event(::Display* display, Window window, int type, int x, int y, unsigned state) {
  XEvent ev{};
  XKeyEvent& k = ev.xkey;  // key, button and motion events share this layout up to `state`
  k.type = type;
  k.display = display;
  k.window = window;
  k.root = DefaultRootWindow(display);
  k.subwindow = None;
  k.time = CurrentTime;
  k.x = x;
  k.y = y;
  Window child = None;
  if (!XTranslateCoordinates(display, window, k.root, x, y, &k.x_root, &k.y_root, &child)) {
    k.x_root = x;
    k.y_root = y;
  }
  k.same_screen = True;
  k.state = state;
  return ev;
}

unsigned modifier_of(KeySym sym) {
  switch (sym) {
    case XK_Shift_L: case XK_Shift_R: return ShiftMask;
    case XK_Control_L: case XK_Control_R: return ControlMask;
    case XK_Alt_L: case XK_Alt_R: case XK_Meta_L: case XK_Meta_R: return Mod1Mask;
    case XK_Super_L: case XK_Super_R: return Mod4Mask;
    default: return 0;
  }
}

unsigned button_mask(unsigned button) {
  static const unsigned masks[] = {Button1Mask, Button2Mask, Button3Mask, Button4Mask, Button5Mask};
  return button >= 1 && button <= 5 ? masks[button - 1] : 0;
}

}  // namespace

void InputInjector::track_modifiers(KeySym sym, bool pressed) {
  const unsigned m = modifier_of(sym);
  state_ = pressed ? state_ | m : state_ & ~m;
}

void InputInjector::track_buttons(unsigned button, bool pressed) {
  const unsigned m = button_mask(button);
  state_ = pressed ? state_ | m : state_ & ~m;
}

bool InputInjector::send(::Display* display, Window window, const wire::Input& in) {
  const bool pressed = in.pressed != 0;
  XEvent ev{};
  long mask = 0;
  switch (static_cast<wire::InputKind>(in.kind)) {
    case wire::InputKind::kKey: {
      const KeyCode code = XKeysymToKeycode(display, static_cast<KeySym>(in.code));
      if (code == 0) return false;
      // The state is what was held before this key, as a keyboard reports it.
      ev = pointer_event(display, window, pressed ? KeyPress : KeyRelease, in.x, in.y, state_);
      ev.xkey.keycode = code;
      mask = pressed ? KeyPressMask : KeyReleaseMask;
      track_modifiers(static_cast<KeySym>(in.code), pressed);
      break;
    }
    case wire::InputKind::kButton:
      if (in.code < 1 || in.code > 31) return false;
      ev = pointer_event(display, window, pressed ? ButtonPress : ButtonRelease, in.x, in.y, state_);
      ev.xbutton.button = in.code;
      mask = pressed ? ButtonPressMask : ButtonReleaseMask;
      track_buttons(in.code, pressed);
      break;
    case wire::InputKind::kMotion:
      ev = pointer_event(display, window, MotionNotify, in.x, in.y, state_);
      ev.xmotion.is_hint = NotifyNormal;
      mask = PointerMotionMask | ButtonMotionMask;
      break;
    default:
      return false;
  }
  const Status sent = XSendEvent(display, window, False, mask, &ev);
  XFlush(display);
  return sent != 0;
}

}  // namespace icd
