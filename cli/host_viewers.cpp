#include "host_viewers.h"

#include <thread>

#include "comp/host_window.h"
#include "host/log.h"

namespace cli {

struct HostViewers::Remote {};

HostViewers::HostViewers(ViewerOptions options) : options_(std::move(options)) {
  if (!options_.any()) return;
  compositor_ = std::make_unique<comp::Compositor>(comp::CompositorOptions{},
                                                   [this](comp::SurfaceKey key, const comp::InputEvent& e) {
                                                     if (host::Server* s = server_.load()) s->send_input(key, e);
                                                   });
}

HostViewers::~HostViewers() = default;

bool HostViewers::start(host::Server& server) {
  server_.store(&server);
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
