#include "host_viewers.h"

#include <cmath>
#include <thread>

#include "comp/host_window.h"
#include "comp/vnc_server.h"
#include "host/log.h"

namespace cli {

// The RFB server and what it serves: the compositor's picture.
struct HostViewers::Remote {
  explicit Remote(comp::Compositor& compositor) : source(compositor) {}
  comp::CompositorSource source;
  std::unique_ptr<comp::VncServer> server;
};

HostViewers::HostViewers(ViewerOptions options) : options_(std::move(options)) {
  if (!options_.any()) return;
  comp::CompositorOptions layout;
  layout.max_tile_width = options_.tile_width;
  layout.max_tile_height = options_.tile_height;
  compositor_ = std::make_unique<comp::Compositor>(layout,
                                                   [this](comp::SurfaceKey key, const comp::InputEvent& e) {
                                                     if (host::Server* s = server_.load()) s->send_input(key, e);
                                                   });
}

HostViewers::~HostViewers() = default;

bool HostViewers::start(host::Server& server) {
  server_.store(&server);
  if (options_.vnc.empty()) return true;
  remote_ = std::make_unique<Remote>(*compositor_);
  comp::VncServerOptions vnc;
  vnc.listen = options_.vnc;
  vnc.password_file = options_.vnc_password_file;
  vnc.novnc_dir = options_.novnc_dir;
  vnc.tls_cert = options_.vnc_cert;
  vnc.tls_key = options_.vnc_key;
  const auto ms = [](double seconds) { return std::chrono::milliseconds(std::llround(seconds * 1000)); };
  vnc.handshake_timeout = ms(options_.vnc_handshake_timeout);
  vnc.idle_timeout = ms(options_.vnc_idle_timeout);
  vnc.password_failures = options_.vnc_password_tries;
  vnc.password_backoff = ms(options_.vnc_password_backoff);
  auto started = comp::VncServer::start(remote_->source, std::move(vnc));
  if (!started) {
    host::log_line("--vnc: %s", started.error().describe().c_str());
    return false;
  }
  remote_->server = std::move(*started);
  return true;
}

int HostViewers::serve(host::Server& server, std::atomic<bool>& stop) {
  if (!options_.window) {
    server.run(stop);
    return 0;
  }
  auto window = comp::HostWindow::create(*compositor_);
  if (!window) {
    host::log_line("--window: %s", window.error().describe().c_str());
    return 1;
  }
  std::thread host_thread([&] { server.run(stop); });
  auto ended = (*window)->run(stop);
  if (!ended) host::log_line("--window: %s", ended.error().describe().c_str());
  stop.store(true);  // closing the window ends the host
  host_thread.join();
  return ended ? 0 : 1;
}

}  // namespace cli
