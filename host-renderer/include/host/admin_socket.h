// The supervisor's admin socket: a unix socket, owner-only, on which every
// connection from the host's own user (or root) gets the host's counters as
// one JSON document. Guests never reach it: they see only their own session.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "wire/result.h"

namespace host {

class AdminSocket {
 public:
  static wire::Result<std::unique_ptr<AdminSocket>> open(const std::string& path);
  ~AdminSocket();
  AdminSocket(const AdminSocket&) = delete;
  AdminSocket& operator=(const AdminSocket&) = delete;

  // Answers connections with `answer()` until `stop` is set.
  void serve(const std::atomic<bool>& stop, const std::function<std::string()>& answer);
  const std::string& path() const { return path_; }

 private:
  AdminSocket(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

// Reads the document a host's admin socket at `path` answers.
wire::Result<std::string> read_admin(const std::string& path);

}  // namespace host
