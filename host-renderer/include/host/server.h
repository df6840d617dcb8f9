// `conduit host`: listens on every configured address and serves each guest
// connection on a thread of its own.
#pragma once

#include <atomic>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/egl_display.h"
#include "host/session.h"
#include "host/stats.h"
#include "wire/transport.h"

namespace host {

struct HostOptions {
  std::vector<std::string> listen;  // addresses; empty = default_address()
  std::string token;                // required for tcp:
  DisplayOptions display;
  SessionLimits limits;
};

class Server {
 public:
  // Opens the display and every listener; fails when any address cannot be used.
  static wire::Result<std::unique_ptr<Server>> create(const HostOptions& opts);
  ~Server();  // stops and joins everything

  const EglDisplay& display() const { return *display_; }
  StatsRegistry& stats() { return stats_; }
  std::vector<std::string> addresses() const;

  // Serves until `stop` (or stop()) is set; returns after all sessions ended.
  void run(const std::atomic<bool>& stop);
  void stop() { stop_.store(true); }
  size_t live_sessions();

 private:
  Server() = default;
  void accept_loop(wire::Listener& listener, const std::atomic<bool>& external_stop);
  void reap_finished();

  struct Worker {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  HostOptions opts_;
  std::unique_ptr<EglDisplay> display_;
  StatsRegistry stats_;
  std::vector<std::unique_ptr<wire::Listener>> listeners_;
  std::atomic<bool> stop_{false};
  std::mutex workers_mutex_;
  std::list<Worker> workers_;
};

// For unix: and shm: addresses, creates the socket's directory (mode 0700)
// when it is missing, so the default path works on a fresh machine.
wire::Status create_socket_dir(const std::string& address);

}  // namespace host
