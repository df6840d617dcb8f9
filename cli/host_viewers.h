// The viewers `conduit host` may run beside its guests: the compositor that
// every guest window's frames reach, the SDL2 host window (--window) and
// the RFB server (--vnc). Input from either goes back to the guest program
// whose surface it was over.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "comp/compositor.h"
#include "comp/vnc_server.h"
#include "host/server.h"

namespace cli {

inline double seconds(std::chrono::milliseconds ms) { return ms.count() / 1000.0; }

struct ViewerOptions {
  bool window = false;
  std::string vnc;  // HOST:PORT, empty: no RFB server
  std::string vnc_password_file;
  std::string vnc_cert, vnc_key;  // TLS for the WebSocket endpoint
  std::string novnc_dir;
  // The RFB port's doors (comp::VncServerOptions), in seconds.
  double vnc_handshake_timeout = seconds(comp::VncServerOptions{}.handshake_timeout);
  double vnc_idle_timeout = seconds(comp::VncServerOptions{}.idle_timeout);
  unsigned vnc_password_tries = comp::VncServerOptions{}.password_failures;
  double vnc_password_backoff = seconds(comp::VncServerOptions{}.password_backoff);
  // Tiles larger than this are scaled down (keeping their shape).
  uint32_t tile_width = comp::CompositorOptions{}.max_tile_width;
  uint32_t tile_height = comp::CompositorOptions{}.max_tile_height;

  bool any() const { return window || !vnc.empty(); }
};

class HostViewers {
 public:
  explicit HostViewers(ViewerOptions options);
  ~HostViewers();

  // Where the server sends frames; null without viewers.
  comp::Compositor* compositor() { return compositor_.get(); }
  // Starts the RFB server; false after saying why on stderr.
  bool start(host::Server& server);
  // Runs `server` until `stop`; with --window the window runs on this
  // thread (SDL wants one) and closing it stops the host. Returns an exit
  // status.
  int serve(host::Server& server, std::atomic<bool>& stop);

 private:
  struct Remote;
  ViewerOptions options_;
  std::atomic<host::Server*> server_{nullptr};
  std::unique_ptr<comp::Compositor> compositor_;
  std::unique_ptr<Remote> remote_;
};

}  // namespace cli
