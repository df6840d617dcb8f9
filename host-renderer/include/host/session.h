// One guest connection, served on its own thread: handshake, contexts,
// surfaces, frames, and the GL command stream dispatched on the host GPU.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <vector>

#include "host/egl_display.h"
#include "host/frame_outlet.h"
#include "host/frame_reader.h"
#include "host/gl_dispatch.h"
#include "host/guest_context.h"
#include "host/stats.h"
#include "host/surface.h"
#include "wire/batch.h"
#include "wire/reader.h"
#include "wire/transport.h"
#include "wire/writer.h"

namespace host {

namespace vk {
class VkHandler;
}

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

 private:
  // session.cpp: the stream
  bool handle_message(std::span<const std::byte> message);
  void run_commands(std::span<const std::byte> commands);
  wire::Status run_command(const wire::CommandIterator::Command& cmd);
  wire::Status run_gl(const wire::CommandIterator::Command& cmd);
  wire::Status run_vulkan(const wire::CommandIterator::Command& cmd);
  void lose(uint32_t opcode, const wire::Error& error);
  void send_frame(const wire::Frame& frame, std::span<const std::byte> pixels);
  bool flush();
  bool ensure_bound();

  // session_control.cpp: Conduit's own commands
  wire::Status run_control(const wire::CommandIterator::Command& cmd);
  wire::Status hello(wire::Reader& r);
  wire::Status create_context(wire::Reader& r);
  wire::Status destroy_context(wire::Reader& r);
  wire::Status make_current(wire::Reader& r);
  wire::Status create_surface(wire::Reader& r);
  wire::Status destroy_surface(wire::Reader& r);
  wire::Status resize_surface(wire::Reader& r);
  wire::Status swap_buffers(wire::Reader& r);
  wire::Status frame_done(wire::Reader& r);
  wire::Status get_stats();
  wire::Status test_fault(wire::Reader& r);  // session_faults.cpp

  // session_images.cpp: EGL images of GL textures and renderbuffers
  bool offers_gl_images() const;
  wire::Status create_image(wire::Reader& r);
  wire::Status uniform_reach(wire::Reader& r);
  wire::Status destroy_image(wire::Reader& r);
  void destroy_images();
  void add_image_sources(const ShareGroup& group, ObjectReferences& refs) const;

  // session_front.cpp: front buffers of double-buffered surfaces
  static bool selects_buffers(uint32_t opcode);
  EGLSurface buffer_of(uint32_t surface_id, bool front) const;
  wire::Status make_front(uint32_t surface_id);
  wire::Status follow_default_buffers();
  wire::Status draw_again_into_front(const wire::CommandIterator::Command& cmd);
  void select_initial_buffers(GuestContext& ctx);
  bool draws_shown_buffer() const;
  wire::Status present_front();
  wire::Status start_frame_reader();

  // session_viewers.cpp
  bool charge_board(uint32_t surface_id, const wire::Frame& frame);
  void publish_to_viewers(const wire::Frame& frame, std::span<const std::byte> pixels);
  void withdraw_from_viewers(uint32_t surface_id);
  void deliver_input();

  // session_teardown.cpp: freeing host objects
  void destroy(GuestContext& ctx);
  bool bind_alone(EGLContext ctx, wire::Api api);
  void teardown();
  void log_end();

  // session_memory.cpp: storage of deleted objects
  void reclaim_memory(bool changed_only);
  void reclaim_after_batch();

  const EglDisplay& display_;
  const SessionLimits limits_;
  StatsRegistry& registry_;
  const std::atomic<bool>& stop_;
  std::shared_ptr<SessionStats> stats_;
  std::unique_ptr<wire::Channel> channel_;
  // Commands read shared-memory heap bytes through private copies.
  wire::HeapCopies heap_copies_{channel_->incoming_heap()};
  wire::BatchDecoder decoder_;
  wire::BatchEncoder encoder_;
  wire::Writer out_;    // host -> guest commands of the current turn
  wire::Writer reply_;  // reply payload of the current batch
  ResourceAccount account_;
  bool greeted_ = false;
  bool broken_ = false;  // the stream cannot be followed any more
  std::string end_reason_;  // why the guest's channel ended, if it did

  // Contexts go before surfaces, the frame reader after both (see teardown()).
  std::map<uint32_t, std::unique_ptr<GuestContext>> contexts_;
  std::map<uint32_t, std::unique_ptr<Surface>> surfaces_;
  std::unique_ptr<FrameReader> frames_;
  GuestImages images_;
  std::unique_ptr<Surface> scratch_;  // 1x1, to bind contexts without EGL_KHR_surfaceless_context

  GuestContext* current_ = nullptr;
  uint32_t draw_id_ = 0, read_id_ = 0;
  bool bound_ = true;  // whether the EGL binding is the guest's current one
  bool no_context_lost_ = false;  // a protocol error while no context was current
  std::unique_ptr<vk::VkHandler> vk_;  // the guest's Vulkan, from its first command
  bool vk_lost_ = false;
  std::map<uint32_t, uint32_t> frames_out_;  // per surface: sent, not yet done
  std::map<uint32_t, uint32_t> last_frame_;  // per surface: the frame id of its last swap
  bool draws_shown_ = false;  // draws_shown_buffer() of the current binding
  bool front_drawn_ = false;  // GL ran while drawing into a shown buffer, since the last flush
  std::chrono::steady_clock::time_point last_reclaim_{};
  std::chrono::steady_clock::duration reclaim_wait_{};  // before deletions make the next look
  std::string program_;  // the guest program's name, from its hello

  FrameOutlet* outlet_ = nullptr;          // host viewers, when there are any
  std::set<uint32_t> vk_windows_;  // surface ids of Vulkan windows whose frames came
  std::map<uint32_t, uint64_t> board_bytes_;  // per surface: its frame board, charged to the guest
  std::mutex input_mutex_;
  std::vector<wire::Input> input_;  // from viewers, for the guest; under input_mutex_
};

}  // namespace host
