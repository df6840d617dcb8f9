// `conduit host`: listens on every configured address and gives each guest
// program a renderer process of its own (docs/host-processes.md); without a
// renderer program (tests), sessions run as threads of this process.
#pragma once

#include <atomic>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "comp/compositor.h"
#include "host/egl_display.h"
#include "host/session.h"
#include "host/stats.h"
#include "wire/transport.h"

namespace host {

struct HostOptions {
  std::vector<std::string> listen;  // addresses; empty = wire::default_address()
  std::string token;                // required for tcp:
  bool insecure = false;            // tcp: plaintext instead of TLS
  std::vector<uint32_t> allow_uids;  // unix:, shm: peers besides this uid and root
  DisplayOptions display;
  SessionLimits limits;
  std::string renderer_exe;       // the `conduit` program; empty: sessions as threads
  uint32_t max_guests = 64;       // renderer processes at once
  uint32_t max_guests_per_peer = 32;
  // Memory renderers may hold together (host/memory_budget.h) before new
  // guests are refused; 0: kDefaultHostMemoryPercent of physical memory.
  uint64_t max_host_memory = 0;
  size_t renderer_data_bytes = 0;  // RLIMIT_DATA of a renderer; 0: twice the guest memory + 1 GiB
  // A renderer whose main loop has not beaten for this long is killed.
  std::chrono::milliseconds renderer_watchdog{30000};
  // A renderer busy this long with one piece of its guest's work (a batch,
  // its frames, its teardown: a driver call that does not return) is killed.
  std::chrono::milliseconds renderer_stall{120000};
  // Whom renderers of a root host run as (src/common/renderer_user.h): a
  // user's name or number, or "auto".
  std::string renderer_user = "auto";
  // Renderers' private shader caches (src/supervisor/shader_cache.h): "auto"
  // (a fresh folder under TMPDIR, removed at exit), a folder of this user's,
  // or "off" (drivers' disk caches off).
  std::string renderer_cache = "auto";
  // The persistent program cache (shaders-cache/), kept by the supervisor:
  // "auto" ($XDG_CACHE_HOME/conduit, else ~/.cache/conduit; `conduit host`'s
  // default), a folder, or "off"; who shares entries ("guest": each guest identity its own,
  // "host": every guest); and its size cap per scope folder.
  std::string program_cache = "off";
  std::string cache_scope = "guest";
  uint64_t program_cache_max = 512ull << 20;
  std::string admin;               // admin socket path; empty: none
  // Polled rings (shm:file=): a guest silent this long has gone.
  std::chrono::milliseconds ring_silence = wire::TransportOptions{}.ring_silence;
  // Host viewers (--window, --vnc): every guest window's frames go here too.
  // Renderer processes only; it must outlive the server.
  comp::Compositor* compositor = nullptr;
  // Capture and replay (docs/capture.md): a capture file per guest session
  // in this folder (empty: none), and frame hashes in the log.
  std::string capture_dir;
  bool log_frame_hashes = false;
};

class Supervisor;
class AdminSocket;

class Server {
 public:
  // Opens the display and every listener; fails when any address cannot be used.
  static wire::Result<std::unique_ptr<Server>> create(const HostOptions& opts);
  ~Server();  // stops and joins everything

  // Sessions as threads only: the display they share.
  const EglDisplay& display() const { return *display_; }
  const RendererInfo& info() const;
  nlohmann::json stats_json();
  std::string summary();
  std::vector<std::string> addresses() const;

  // Serves until `stop` (or stop()) is set; returns after all sessions ended.
  void run(const std::atomic<bool>& stop);
  void stop() { stop_.store(true); }
  size_t live_sessions();
  // A viewer's event for a guest surface (renderer processes only). Any thread.
  void send_input(comp::SurfaceKey key, const comp::InputEvent& event);

 private:
  Server();
  void start_handshake(std::unique_ptr<wire::PendingPeer> peer);
  void serve(std::unique_ptr<wire::Channel> channel, const std::string& peer);
  void accept_loop(wire::Listener& listener, const std::atomic<bool>& external_stop);
  void reap_finished();
  void join_workers();
  // Handshakes in progress; under workers_mutex_.
  int handshakes_of(const std::string& key) const;
  void release_handshake(const std::string& key);
  void evict_oldest_handshake(const std::string& key);

  struct Worker {
    std::thread thread;
    std::atomic<bool> done{false};
    std::string key;                           // whose share it counts against
    wire::PendingPeer* handshaking = nullptr;  // until its handshake ended; under workers_mutex_
    bool evicted = false;                      // abandoned, and no longer counted in handshakes_
  };

  HostOptions opts_;
  std::unique_ptr<EglDisplay> display_;  // sessions as threads
  StatsRegistry stats_;                   // sessions as threads
  std::unique_ptr<Supervisor> supervisor_;  // renderer processes
  std::unique_ptr<AdminSocket> admin_;
  std::vector<std::unique_ptr<wire::Listener>> listeners_;
  std::atomic<bool> stop_{false};
  std::mutex workers_mutex_;
  std::list<Worker> workers_;  // handshakes, and sessions as threads
  int handshakes_total_ = 0;
  std::map<std::string, int> handshakes_;  // in progress, per peer
};

}  // namespace host
