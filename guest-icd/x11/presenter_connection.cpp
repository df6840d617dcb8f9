#include "x11/presenter_connection.h"

#include <unistd.h>
#include <X11/Xlibint.h>

namespace icd {
namespace {

// Set by the error hook of our connections; X errors are reported on the
// thread that waits for the request, which holds the connection's mutex.
thread_local bool t_x_error = false;

int swallow_error(::Display*, xError*, XExtCodes*, int* ret_code) {
  t_x_error = true;
  *ret_code = 0;
  return 1;  // handled: the process-wide handler never sees it
}

struct Opened {
  pid_t pid = 0;
  std::shared_ptr<PresenterConnection> connection;
};

}  // namespace

std::shared_ptr<PresenterConnection> PresenterConnection::get(const std::string& display_name) {
  // Never destroyed: frames may be presented from exit handlers.
  static auto* mu = new std::mutex;
  static auto* opened = new std::map<std::string, Opened>;
  std::lock_guard lock(*mu);
  Opened& o = (*opened)[display_name];
  // A forked child shares its parent's socket: it needs a connection of its own.
  if (o.connection && o.pid == getpid()) return o.connection;
  ::Display* display = XOpenDisplay(display_name.c_str());
  if (!display) return nullptr;
  // An extension record of our own gives this connection its own error hook.
  if (XExtCodes* codes = XAddExtension(display)) XESetError(display, codes->extension, swallow_error);
  o = {getpid(), std::make_shared<PresenterConnection>(display)};
  return o.connection;
}

void PresenterConnection::clear_error() { t_x_error = false; }

bool PresenterConnection::sync_failed() {
  XSync(display_, False);
  const bool failed = t_x_error;
  t_x_error = false;
  return failed;
}

void PresenterConnection::follow(Window window) {
  if (followed_[window]++ == 0) XSelectInput(display_, window, StructureNotifyMask);
}

void PresenterConnection::unfollow(Window window) {
  auto it = followed_.find(window);
  if (it == followed_.end() || --it->second > 0) return;
  followed_.erase(it);
  XSelectInput(display_, window, NoEventMask);  // a window already gone reports an error: ignored
  sync_failed();
  XEvent event;
  while (XCheckWindowEvent(display_, window, StructureNotifyMask, &event)) {
  }
}

}  // namespace icd
