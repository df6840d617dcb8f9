// The X connection through which a process's presenters draw: one per
// display the process presents on, made on first use and kept while the
// process lives. A program's windows, pixmaps and surfaces then cost the X
// server one client however many of them it makes and destroys, as they do
// natively, instead of one each (a program cycling through windows would
// otherwise fill the server's client table and get other programs' connections
// refused).
#pragma once

#include <X11/Xlib.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace icd {

class PresenterConnection {
 public:
  // The connection to `display_name`; null when the server cannot be reached.
  static std::shared_ptr<PresenterConnection> get(const std::string& display_name);

  explicit PresenterConnection(::Display* display) : display_(display) {}
  PresenterConnection(const PresenterConnection&) = delete;
  PresenterConnection& operator=(const PresenterConnection&) = delete;

  ::Display* display() const { return display_; }
  // Held around every request: presenters draw from the swapping threads and
  // from the thread that receives frames.
  std::mutex& mutex() { return mu_; }

  // Clears the error flag, waits for the server to handle what was sent and
  // says whether it reported an error since; call with the mutex held.
  bool sync_failed();
  void clear_error();

  // Windows whose size changes the connection hears of (StructureNotify),
  // counted by the presenters that follow them; call with the mutex held.
  // The last to stop following deselects the window and drops its events.
  void follow(Window window);
  void unfollow(Window window);

 private:
  ::Display* display_;
  std::mutex mu_;
  std::map<Window, int> followed_;
};

}  // namespace icd
