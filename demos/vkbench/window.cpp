#include "window.h"

#include <cstdlib>
#include <cstring>

#include "check.h"

namespace vkbench {

Window::Window(uint32_t width, uint32_t height) {
  int screen_number = 0;
  connection_ = xcb_connect(nullptr, &screen_number);
  if (xcb_connection_has_error(connection_)) fail("cannot open the X display (DISPLAY unset?)");
  xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(connection_));
  for (int i = 0; i < screen_number; ++i) xcb_screen_next(&screens);
  xcb_screen_t* screen = screens.data;
  window_ = xcb_generate_id(connection_);
  const uint32_t mask = XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK;
  const uint32_t values[] = {screen->black_pixel, XCB_EVENT_MASK_STRUCTURE_NOTIFY};
  xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0, uint16_t(width),
                    uint16_t(height), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, mask,
                    values);
  const char* title = "conduit-vkbench";
  xcb_change_property(connection_, XCB_PROP_MODE_REPLACE, window_, XCB_ATOM_WM_NAME,
                      XCB_ATOM_STRING, 8, uint32_t(std::strlen(title)), title);
  xcb_map_window(connection_, window_);
  xcb_flush(connection_);
}

Window::~Window() {
  if (window_) xcb_destroy_window(connection_, window_);
  xcb_disconnect(connection_);
}

void Window::poll_events() {
  while (xcb_generic_event_t* event = xcb_poll_for_event(connection_)) std::free(event);
}

}  // namespace vkbench
