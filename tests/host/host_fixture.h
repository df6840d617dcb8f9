// Runs a real host (Server) on a private unix socket for the length of a test
// suite: sessions as threads of the test, or with `renderer_exe` set, in
// renderer processes of their own as `conduit host` runs them.
#pragma once

#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "host/server.h"

namespace hosttest {

class RunningHost {
 public:
  // With `ring_file`, it listens on a shared-memory ring file too; on
  // `opts.listen`'s addresses as well.
  explicit RunningHost(host::HostOptions opts = {}, bool ring_file = false) {
    static std::atomic<int> serial{0};
    const std::string name = "conduit-host-test-" + std::to_string(getpid()) + "-" +
                             std::to_string(serial.fetch_add(1));
    address_ = "unix:/tmp/" + name + ".sock";
    opts.listen.insert(opts.listen.begin(), address_);
    if (ring_file) {
      ring_path_ = "/dev/shm/" + name + ".ring";
      opts.listen.push_back("shm:file=" + ring_path_);
    }
    auto s = host::Server::create(opts);
    if (!s) {
      error_ = s.error().describe();
      return;
    }
    server_ = std::move(*s);
    thread_ = std::thread([this] { server_->run(stop_); });
  }
  ~RunningHost() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    if (!ring_path_.empty()) ::unlink(ring_path_.c_str());
  }

  bool ok() const { return server_ != nullptr; }
  const std::string& error() const { return error_; }
  const std::string& address() const { return address_; }
  std::string ring_address() const { return "shm:file=" + ring_path_; }
  host::Server& server() { return *server_; }

 private:
  std::string address_, ring_path_, error_;
  std::unique_ptr<host::Server> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace hosttest
