// The supervisor side of `conduit host`: one renderer process per guest
// program, kept under the host's caps, reaped and counted when it ends
// (docs/host-processes.md). It never decodes a guest command.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "comp/compositor.h"
#include "program_cache_root.h"
#include "renderer_process.h"
#include "shader_cache.h"
#include "wire/transport.h"

namespace host {

struct SupervisorOptions {
  std::string renderer_exe;
  RendererConfig renderer;
  uint32_t max_guests = 64;           // live renderer processes
  uint32_t max_guests_per_peer = 32;  // of one peer identity (when known)
  // Memory the renderers serving guests may hold together
  // (process_memory_bytes); at or beyond it new guests are refused. 0: none.
  uint64_t max_host_memory = 0;
  comp::Compositor* compositor = nullptr;  // host viewers, if any
  // A renderer whose main loop has not beaten (CountersPage::heartbeat)
  // for this long is killed, and its guest's slot given back.
  // It is killed too when its guest has been gone this long and it still
  // runs (stuck where it would notice).
  std::chrono::milliseconds watchdog{30000};
  // A renderer whose session has been busy with one piece of work
  // (CountersPage::busy_since_ms) this long is killed.
  std::chrono::milliseconds stall{120000};
  // Where renderers get their private shader cache folders; null: caches off.
  std::shared_ptr<ShaderCacheRoot> shader_caches;
  // The persistent program cache the supervisor keeps for renderers; null: off.
  std::shared_ptr<ProgramCacheRoot> program_cache;
  std::string capture_dir;  // a capture file per guest session here (docs/capture.md); empty: none
};

class Supervisor {
 public:
  // Starts the first renderer, which tells what the display offers.
  static wire::Result<std::unique_ptr<Supervisor>> create(SupervisorOptions opts);
  ~Supervisor();  // stops every renderer and waits for them

  const RendererInfo& info() const { return info_; }
  // Gives an authenticated guest to a renderer of its own, or refuses it
  // (telling it why, then closing the channel) when a cap or the memory
  // budget is reached. Any thread.
  void serve(std::unique_ptr<wire::Channel> channel, const std::string& peer);
  nlohmann::json stats_json();
  size_t live_guests();
  // Asks every renderer to end its sessions, and waits until they did.
  void stop_all();
  // A viewer's event for a guest's surface; any thread, never waits.
  void send_input(comp::SurfaceKey key, const comp::InputEvent& event);

 private:
  struct Guest {
    uint32_t id = 0;
    std::string peer, description;
    std::unique_ptr<RendererProcess> renderer;
    std::function<void()> on_release;
    std::vector<std::unique_ptr<wire::Channel>> relayed;  // guest end, renderer end
    std::vector<std::thread> relays;
    std::thread monitor;
    std::thread cache_server;  // answers its renderer's program cache requests
    std::set<uint32_t> shown;  // surfaces given to the compositor; by the monitor only
    std::atomic<bool> done{false};
    uint64_t last_beat = 0;  // the watchdog's, under mutex_
    uint64_t memory = 0;     // its renderer's process_memory_bytes when last measured; under mutex_
    std::chrono::steady_clock::time_point beat_seen = std::chrono::steady_clock::now();
    // Whether its guest has gone, seen from here (wire::ChannelHandoff::peer_gone,
    // or the relay's end); dropped once the renderer ended. Under mutex_.
    std::function<bool()> guest_gone;
    std::optional<std::chrono::steady_clock::time_point> gone_seen;
    bool killed = false;
  };

  explicit Supervisor(SupervisorOptions opts) : opts_(std::move(opts)) {}
  std::string admit(const std::string& peer);  // why it cannot be served; empty: it can
  uint64_t measure_renderers();  // under mutex_
  wire::Result<std::unique_ptr<RendererProcess>> take_renderer();
  void keep_spare();
  bool all_done() const;  // every guest's renderer has ended; under mutex_
  wire::Result<wire::ChannelHandoff> handoff_or_relay(Guest& g, std::unique_ptr<wire::Channel> channel);
  void watch(Guest& g);
  void show_surface(Guest& g, ControlMessage& msg);
  void on_renderer_message(Guest& g, ControlMessage& msg);
  void reap();
  void watch_heartbeats();
  // The watchdog's looks at one renderer; under mutex_.
  void check_heartbeat(Guest& g, std::chrono::steady_clock::time_point now);
  void check_stall(Guest& g, std::chrono::steady_clock::time_point now);
  void check_guest_gone(Guest& g, std::chrono::steady_clock::time_point now);
  void kill_renderer(Guest& g, const std::string& why);

  SupervisorOptions opts_;
  RendererInfo info_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::unique_ptr<RendererProcess> spare_;  // started and confined, waiting for a guest
  // Held from the cap check until the guest is listed, so that guests
  // arriving together cannot all pass the same check.
  std::mutex admission_;
  bool stopping_ = false;
  bool spare_started_ = false;                // a renderer has ever started
  std::optional<wire::Error> first_failure_;  // why the first one could not
  uint32_t next_id_ = 1;  // also one more than the renderers given a guest
  uint64_t crashed_ = 0, refused_ = 0;
  uint64_t renderers_memory_ = 0;  // measure_renderers()'s last sum
  uint64_t refused_for_memory_ = 0;
  Counters finished_;
  std::list<Guest> guests_;
  std::thread spare_keeper_;  // starts every renderer
  std::thread watchdog_;
};

}  // namespace host
