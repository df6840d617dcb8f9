// Runs a real host (Server) on a private unix socket for the length of a test suite.
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
  explicit RunningHost(host::HostOptions opts = {}) {
    static std::atomic<int> serial{0};
    address_ = "unix:/tmp/conduit-host-test-" + std::to_string(getpid()) + "-" +
               std::to_string(serial.fetch_add(1)) + ".sock";
    opts.listen = {address_};
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
  }

  bool ok() const { return server_ != nullptr; }
  const std::string& error() const { return error_; }
  const std::string& address() const { return address_; }
  host::Server& server() { return *server_; }

 private:
  std::string address_, error_;
  std::unique_ptr<host::Server> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace hosttest
