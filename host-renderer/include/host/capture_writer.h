// Writes a capture file (host/capture_format.h) from a session's thread
// without holding it up: records go into a bounded queue, and a thread of
// the writer's own compresses them (zstd) and writes them out.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "host/capture_format.h"
#include "wire/result.h"

namespace host::capture {

// A new capture file for session `session` in `dir`:
// DIR/conduit-<host pid>-<session>.cdcap, made by this call (never an
// existing file), readable by this user only.
wire::Result<int> create_capture_file(const std::string& dir, uint32_t session);

class Writer {
 public:
  // Takes `fd`, a file open for writing, and writes the file header.
  // `queue_bytes`: what may wait for the disk before record() waits for it.
  static wire::Result<std::unique_ptr<Writer>> open(int fd, std::string name, size_t queue_bytes = 256u << 20);
  // Writes what is queued, ends the stream and closes the file.
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Queues one record whose payload is `parts` one after the other. Waits
  // only while the queue holds `queue_bytes` already (a disk slower than
  // the program for that long). After a write error records are dropped.
  void record(RecordKind kind, std::initializer_list<std::span<const std::byte>> parts);

  bool failed() const;
  uint64_t records() const { return records_; }

 private:
  Writer(int fd, std::string name, size_t queue_bytes);
  void run();
  bool compress(std::span<const std::byte> in, bool flush, bool end);
  bool write_out(std::span<const std::byte> bytes);

  int fd_;
  std::string name_;  // for the one error line
  size_t queue_limit_;
  uint64_t records_ = 0;
  struct Zstd;
  std::unique_ptr<Zstd> zstd_;
  std::vector<std::byte> out_;

  mutable std::mutex mutex_;
  std::condition_variable ready_;    // the thread: something queued, or closing
  std::condition_variable drained_;  // record(): room in the queue
  std::deque<std::vector<std::byte>> queue_;
  size_t queued_bytes_ = 0;
  bool closing_ = false;
  bool failed_ = false;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace host::capture
