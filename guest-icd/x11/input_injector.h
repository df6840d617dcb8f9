// Key and pointer events from a host viewer, given to the program's window
// as the X server would give them (XSendEvent on the presenter's own
// connection): the program reads them from its own event queue.
#pragma once

#include <X11/Xlib.h>

#include "wire/control.h"

namespace icd {

class InputInjector {
 public:
  // False when the event is not one to send (an unknown kind or key).
  bool send(::Display* display, Window window, const wire::Input& input);

 private:
  void track_modifiers(KeySym sym, bool pressed);
  void track_buttons(unsigned button, bool pressed);
  unsigned state_ = 0;  // modifiers and buttons held, as events report them
};

}  // namespace icd
