// A real `conduit host` child process, for tests that need the other end of
// the wire. CONDUIT_EXE names the binary; CONDUIT_TEST_TRANSPORT picks how
// guests reach it: `unix:` (default), `shm:` or `shm:file=`, so that one
// suite runs over every local transport.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "wire/transport.h"

namespace guesttest {

class HostProcess {
 public:
  // `options`: more options of `conduit host`.
  explicit HostProcess(std::vector<std::string> options = {}) {
    const char* transport = std::getenv("CONDUIT_TEST_TRANSPORT");
    const std::string scheme = transport && *transport ? transport : "unix:";
    address_ = scheme + "/tmp/conduit-guest-test-" + std::to_string(getpid()) +
               (scheme == "shm:file=" ? ".ring" : ".sock");
    const char* exe = std::getenv("CONDUIT_EXE");
    if (!exe || !*exe) {
      error_ = "CONDUIT_EXE is not set";
      return;
    }
    std::vector<std::string> args = {exe, "host", "--listen", address_};
    args.insert(args.end(), options.begin(), options.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      execv(exe, argv.data());
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (auto ch = wire::connect(address_)) {
        (*ch)->close();
        return;
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        error_ = "conduit host exited early";
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    error_ = "conduit host did not start listening";
  }

  ~HostProcess() { stop(SIGTERM); }

  // Ends the host; SIGKILL plays a host that crashed.
  void stop(int sig) {
    if (pid_ <= 0) return;
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  const std::string& address() const { return address_; }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  std::string address_;
  std::string error_;
};

}  // namespace guesttest
