// File descriptors and deadline-bounded socket I/O shared by the transports.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <utility>

#include "wire/fd.h"
#include "wire/result.h"

namespace wire::transport {

using Fd = wire::Fd;

using Clock = std::chrono::steady_clock;

class Deadline {
 public:
  explicit Deadline(std::chrono::milliseconds timeout) : at_(Clock::now() + timeout) {}
  bool expired() const { return Clock::now() >= at_; }
  // Milliseconds left, rounded up, for poll(); 0 once expired.
  int poll_ms() const;

 private:
  Clock::time_point at_;
};

// An error built from errno, naming what failed.
Error errno_error(const char* what);
Error errno_error(const char* what, int err);

Status set_nonblocking(int fd);

// Waits for `events` on fd; kTimeout when the deadline passes, kClosed on
// hang-up or error conditions. Returns the revents seen.
// With a `waker` (Channel::set_waker), its becoming readable is kTimeout too.
Result<short> wait_fd(int fd, short events, const Deadline& deadline, int waker = -1);
// Whether `fd` (-1: none) is readable now.
bool readable_now(int fd);

// Whether the peer of socket `fd` has hung up (closed, shut down its
// writing, or died), through a duplicate of `fd` the probe owns, so that it
// may outlive `fd` in this process; an empty probe when `fd` cannot be
// duplicated.
std::function<bool()> hang_up_probe(int fd);

// Whole-buffer I/O on a non-blocking socket, bounded by the deadline.
Status write_all(int fd, std::span<const std::byte> data, const Deadline& deadline);
Status read_exact(int fd, std::span<std::byte> data, const Deadline& deadline);

// One message with file descriptors attached (SCM_RIGHTS), and its receiver,
// which fills `fds` and returns how many arrived (extra ones are closed).
Status send_with_fds(int fd, std::span<const std::byte> data, std::span<const int> fds,
                     const Deadline& deadline);
Result<size_t> recv_with_fds(int fd, std::span<std::byte> data, std::span<Fd> fds,
                             const Deadline& deadline);

// A memory file of `bytes` whose size is sealed: a peer given the same file
// cannot shrink it under our mapping (which would turn accesses into SIGBUS).
Result<Fd> create_sealed_file(const char* name, size_t bytes);

// Unix stream sockets: PATH, or @NAME for the abstract namespace.
Result<Fd> unix_connect(const std::string& path, const Deadline& deadline);
Result<Fd> unix_listen(const std::string& path);
// Accepts one connection as a non-blocking socket, waiting up to the deadline.
Result<Fd> accept_fd(int listen_fd, const Deadline& deadline);

}  // namespace wire::transport
