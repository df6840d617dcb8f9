// One guest connection, served on its own thread: batches framed and
// decoded, Conduit's own commands answered, every other command handed to
// the handler of its API (host/api_handler.h), replies and frames carried
// to the guest and to viewers, and viewers' input back.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "host/api_handler.h"
#include "host/egl_display.h"
#include "host/frame_outlet.h"
#include "host/frame_reader.h"
#include "host/resource_account.h"
#include "host/stats.h"
#include "wire/batch.h"
#include "wire/reader.h"
#include "wire/transport.h"
#include "wire/writer.h"

namespace host {

class ProgramCacheClient;
class ProgramBinaries;

class GlHandler;
namespace vk {
class VkHandler;
}
namespace capture {
class SessionCapture;
class Writer;
}  // namespace capture

struct SessionLimits {
  GuestLimits guest;
  // Decompressed size of one batch: room for one upload of the largest
  // object a guest may own (GuestLimits::max_object_bytes) and 64 MiB more.
  size_t max_batch_bytes = (512u + 64u) << 20;
  uint32_t max_contexts = 64;
  uint32_t max_surfaces = 64;
  uint32_t frame_ring = 3;             // pixel buffer objects per surface
  bool test_faults = false;            // honour kTestFault (tests of renderer isolation only)
};

// A batch that decompresses to at most this many bytes is taken whatever
// the guest holds, so that a guest at its memory limit can still send the
// commands that free memory; the decoder keeps no larger buffer between
// batches. The bytes of a larger batch beyond it must fit what the guest
// may still allocate, and are charged to it while its commands run.
constexpr size_t kUnchargedBatchBytes = 1u << 20;

class Session {
 public:
  // `id` 0: the registry's next; renderer processes get theirs from the supervisor.
  Session(const EglDisplay& display, std::unique_ptr<wire::Channel> channel, const SessionLimits& limits,
          StatsRegistry& registry, const std::atomic<bool>& stop, uint32_t id = 0);
  // Frees every host object of the guest, on the calling thread.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Serves the guest until it goes away, breaks the stream, or `stop` is set.
  void run();

  // Host viewers (session_viewers.cpp). Window frames also go to `outlet`
  // (set before run()); input for a surface's window reaches the guest
  // between batches. queue_input: any thread.
  void set_frame_outlet(FrameOutlet* outlet);
  void queue_input(const wire::Input& input);

  // Waking (set before run()). An idle session waits for its guest up to
  // `idle_wait` at a time (default 100 ms, which also bounds how soon it sees
  // `stop`); a renderer, which wakes its sessions when it stops, waits for
  // good. Input and wake() end the wait at once. `on_resume` runs on the
  // session's thread when a guest that was idle sends again.
  void set_idle_wait(std::chrono::milliseconds idle_wait, std::function<void()> on_resume);
  // Ends the session's wait for its guest; any thread.
  void wake();
  // Where the session stamps when it began its current work for the guest
  // (steady clock milliseconds; 0 while it waits for the guest, never
  // cleared once it tears down), for a supervisor to find it stuck. Set
  // before run().
  void set_busy_stamp(std::atomic<uint64_t>* stamp) { busy_stamp_ = stamp; }
  // The renderer's end of the program cache (program_cache_channel.h),
  // which its GL programs are looked up in and stored to. Set before run().
  void set_program_cache(std::shared_ptr<ProgramCacheClient> client);

  // Capture and replay (docs/capture.md), set before run(). The session's
  // stream is recorded into `writer`; Vulkan memory then crosses in the
  // stream, not through shared pages, which no capture could follow.
  void set_capture(std::unique_ptr<capture::Writer> writer);
  // Vulkan memory crosses in the stream, not through shared pages, as in a
  // captured session (a replay of one).
  void share_no_memory() { share_no_memory_ = true; }
  // Every frame the guest receives is also handed here.
  void set_frame_tap(FrameSink tap) { frame_tap_ = std::move(tap); }
  // Logs each frame's hash (host/capture_format.h) as it goes to the guest.
  void set_log_frame_hashes(bool on) { log_frame_hashes_ = on; }

 private:
  // session.cpp: the stream
  bool handle_message(std::span<const std::byte> message);
  void run_commands(std::span<const std::byte> commands);
  wire::Status run_command(const wire::CommandIterator::Command& cmd);
  ApiHandler& handler_of(uint32_t opcode);
  vk::VkHandler& vulkan();
  void reclaim();
  void lose(uint32_t opcode, const wire::Error& error);
  void send_frame(const wire::Frame& frame, std::span<const std::byte> pixels);
  // A frame's message in two steps: room for its pixels, then what follows
  // once they are written there (FramePlacement).
  std::span<std::byte> place_frame(const wire::Frame& frame);
  void frame_placed(const wire::Frame& frame, std::span<const std::byte> pixels);
  size_t frame_at_ = 0;  // where the placed frame's command starts in out_
  void send_program_linked(const wire::ProgramLinked& linked, std::span<const std::byte> reflection);
  bool flush();
  bool vulkan_overdue();
  bool watching_fences() const;
  void teardown();
  void log_end();
  void log_frame_times();

  // session_control.cpp: Conduit's own commands
  wire::Status run_control(const ApiCommand& cmd);
  wire::Status hello(wire::Reader& r);
  wire::Status frame_done(wire::Reader& r);
  wire::Status get_stats();
  wire::Status test_fault(wire::Reader& r);  // session_faults.cpp

  // session_viewers.cpp
  bool charge_board(uint32_t surface_id, const wire::Frame& frame);
  void publish_to_viewers(const wire::Frame& frame, std::span<const std::byte> pixels);
  void withdraw_from_viewers(uint32_t surface_id);
  void deliver_input();

  void drain_waker();
  void stamp_busy(bool busy);
  void note_frame(const wire::Frame& frame, std::span<const std::byte> pixels);  // session_capture_hooks.cpp
  void note_to_guest(uint32_t control_op, std::span<const std::byte> payload);
  void note_fences(std::span<const uint64_t> fences);

  const EglDisplay& display_;
  const SessionLimits limits_;
  StatsRegistry& registry_;
  const std::atomic<bool>& stop_;
  std::shared_ptr<SessionStats> stats_;
  // The channel outlives the handlers: Vulkan maps its shared area.
  std::unique_ptr<wire::Channel> channel_;
  // Commands read shared-memory heap bytes through private copies.
  wire::HeapCopies heap_copies_{channel_->incoming_heap()};
  wire::BatchDecoder decoder_;
  wire::BatchEncoder encoder_;
  int waker_ = -1;  // an eventfd: wake() and queue_input() make it readable
  std::chrono::milliseconds idle_wait_{100};
  const bool patient_ = channel_->patient();  // cores to spare for looking
  std::chrono::steady_clock::time_point last_batch_;
  std::function<void()> on_resume_;
  std::atomic<uint64_t>* busy_stamp_ = nullptr;
  wire::Writer out_;    // host -> guest commands of the current turn
  wire::Writer reply_;  // reply payload of the current batch
  ResourceAccount account_;
  bool greeted_ = false;
  bool broken_ = false;  // the stream cannot be followed any more
  std::string end_reason_;  // why the guest's channel ended, if it did
  std::string program_;  // the guest program's name, from its hello

  std::unique_ptr<capture::SessionCapture> capture_;
  FrameSink frame_tap_;
  bool log_frame_hashes_ = false;
  bool share_no_memory_ = false;
  uint64_t frames_sent_ = 0;

  FrameOutlet* outlet_ = nullptr;          // host viewers, when there are any
  std::set<uint32_t> vk_windows_;  // surface ids of Vulkan windows whose frames came
  std::map<uint32_t, uint64_t> board_bytes_;  // per surface: its frame board, charged to the guest
  std::mutex input_mutex_;
  std::vector<wire::Input> input_;  // from viewers, for the guest; under input_mutex_

  // The handlers by opcode range, after everything they charge and send
  // through, which they use while they are torn down (teardown()).
  std::shared_ptr<ProgramCacheClient> program_cache_;
  std::unique_ptr<ProgramBinaries> programs_;  // outlives gl_, which uses it
  std::unique_ptr<GlHandler> gl_;
  std::unique_ptr<vk::VkHandler> vk_;  // the guest's Vulkan, from its first command
};

}  // namespace host
