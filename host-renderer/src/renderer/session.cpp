#include "host/session.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "capture/session_capture.h"
#include "gl/gl_handler.h"
#include "gl/program_binaries.h"
#include "program_cache_channel.h"
#include "host/log.h"
#include "vk/vk_handler.h"
#include "wire/vk_commands.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

const char* control_op_name(uint32_t op) {
  switch (static_cast<wire::ControlOp>(op)) {
    case wire::ControlOp::kHello: return "kHello";
    case wire::ControlOp::kCreateContext: return "kCreateContext";
    case wire::ControlOp::kDestroyContext: return "kDestroyContext";
    case wire::ControlOp::kMakeCurrent: return "kMakeCurrent";
    case wire::ControlOp::kCreateSurface: return "kCreateSurface";
    case wire::ControlOp::kDestroySurface: return "kDestroySurface";
    case wire::ControlOp::kResizeSurface: return "kResizeSurface";
    case wire::ControlOp::kSwapBuffers: return "kSwapBuffers";
    case wire::ControlOp::kSync: return "kSync";
    case wire::ControlOp::kGetStats: return "kGetStats";
    case wire::ControlOp::kFrameDone: return "kFrameDone";
    case wire::ControlOp::kTestFault: return "kTestFault";
    default: return nullptr;
  }
}

// While frames are being read back the session only looks for a message,
// without sleeping: a guest that found none waits for its oldest frame,
// which the GPU is finishing now, so that is what the session waits for.
constexpr auto kFramePoll = std::chrono::milliseconds(0);
constexpr auto kFrameRetry = std::chrono::milliseconds(1);  // after a wait that delivered none
// How often a session whose guest's Vulkan work is still running looks at
// its clock (submission_clock.cpp) while the guest says nothing.
constexpr auto kWorkPoll = std::chrono::milliseconds(500);
// How long after a batch a patient session keeps looking at the fences
// it submitted, between looks for the next batch (watching_fences()).
constexpr auto kFenceWatch = std::chrono::milliseconds(2);
constexpr auto kRelaxed = std::memory_order_relaxed;

}  // namespace

Session::Session(const EglDisplay& display, std::unique_ptr<wire::Channel> channel,
                 const SessionLimits& limits, StatsRegistry& registry, const std::atomic<bool>& stop,
                 uint32_t id)
    : display_(display),
      limits_(limits),
      registry_(registry),
      stop_(stop),
      stats_(registry.open_session(channel->describe(), id)),
      channel_(std::move(channel)),
      decoder_(limits.max_batch_bytes),
      encoder_(wire::compression_for(*channel_)) {
  waker_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  channel_->set_waker(waker_);
  account_.limits = limits.guest;
  account_.reclaim = [this] { reclaim(); };
  // Only whole messages go to the shared heap: a reply's bytes are copied
  // out as one Data by the guest, which reads no heap references inside it.
  out_.set_blob_sink(channel_->outgoing_heap());
  FramePlacement frames{[this](const wire::Frame& f) { return place_frame(f); },
                     [this](const wire::Frame& f, std::span<const std::byte> px) { frame_placed(f, px); }};
  GlHandler::ToGuest to_guest{std::move(frames),
                              [this](uint32_t surface_id) { withdraw_from_viewers(surface_id); },
                              [this](const wire::ProgramLinked& linked, std::span<const std::byte> reflection) {
                                send_program_linked(linked, reflection);
                              }};
  gl_ = std::make_unique<GlHandler>(
      display, GlHandler::Limits{limits.max_contexts, limits.max_surfaces, limits.frame_ring}, account_,
      std::move(to_guest), stats_->id);
  set_program_cache(nullptr);  // counted, not cached, until a cache is given
  gl_->set_memory_exports([this](uint32_t number, uint64_t bytes) -> std::optional<int> {
    if (!vk_) return std::nullopt;
    return vk_->take_export(number, bytes);
  });
}

void Session::set_program_cache(std::shared_ptr<ProgramCacheClient> client) {
  program_cache_ = std::move(client);
  programs_ = std::make_unique<ProgramBinaries>(program_cache_.get(), stats_->counters);
  gl_->set_program_binaries(programs_.get());
}

Session::~Session() {
  stamp_busy(true);  // freeing the guest's objects calls the driver too
  log_end();
  teardown();
  channel_->close();
  channel_->set_waker(-1);
  if (waker_ >= 0) ::close(waker_);
  registry_.close_session(stats_);
}

void Session::set_idle_wait(std::chrono::milliseconds idle_wait, std::function<void()> on_resume) {
  idle_wait_ = idle_wait;
  on_resume_ = std::move(on_resume);
}

void Session::wake() {
  const uint64_t one = 1;
  if (waker_ >= 0) (void)!::write(waker_, &one, sizeof one);
}

void Session::stamp_busy(bool busy) {
  if (!busy_stamp_) return;
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  busy_stamp_->store(busy ? std::chrono::duration_cast<std::chrono::milliseconds>(now).count() : 0, kRelaxed);
}

void Session::drain_waker() {
  uint64_t count;
  if (waker_ >= 0) (void)!::read(waker_, &count, sizeof count);
}

// What a guest left behind when it went: the host frees all of it.
void Session::log_end() {
  uint64_t dropped = 0;
  if (!guest_log_limiter().allow(&dropped)) return;
  log_frame_times();
  log_line("session %u (%s) ended: %s; freeing %zu contexts, %zu surfaces, %zu names, %zu bytes%s",
           stats_->id, stats_->peer.c_str(), !end_reason_.empty() ? end_reason_.c_str() : broken_ ? "stream broken" : "host stopping",
           gl_->context_count(), gl_->surface_count(), account_.objects, account_.total_bytes,
           dropped ? (" (" + std::to_string(dropped) + " lines dropped)").c_str() : "");
}

// Per frame, in microseconds: where the host's share of the frame path went.
void Session::log_frame_times() {
  const FrameTimes t = gl_->frame_times();
  if (t.frames == 0) return;
  auto per_frame = [&](std::chrono::nanoseconds d) { return static_cast<double>(d.count()) / 1e3 / t.frames; };
  log_line("session %u: %llu frames read back; per frame %.1f us ordering reads after drawing, %.1f us "
           "switching to the readback context, %.1f us starting the read, %.1f us waiting for reads, %.1f us "
           "copying rows out, %.1f us making guest contexts current again",
           stats_->id, static_cast<unsigned long long>(t.frames), per_frame(t.order), per_frame(t.bind),
           per_frame(t.read), per_frame(t.wait), per_frame(t.copy), per_frame(t.rebind));
}

void Session::run() {
  bool idle = false;  // the last wait for the guest was a whole idle one
  bool frames_stuck = false;  // a wait for the oldest frame delivered none: poll instead
  while (!stop_.load(kRelaxed) && !broken_) {
    const bool frames = gl_->frames_pending();
    const bool working = vk_ && vk_->work_pending();
    const bool fences = watching_fences();
    stamp_busy(false);
    auto msg = channel_->receive(frames ? (frames_stuck ? kFrameRetry : kFramePoll)
                                 : fences ? kFramePoll
                                 : working ? kWorkPoll : idle_wait_);
    stamp_busy(true);
    if (!msg) {
      if (msg.error().code != Errc::kTimeout) {
        end_reason_ = msg.error().describe();
        break;
      }
      if (fences) vk_->tell_signalled_fences();
      idle = !frames && !working && !fences;
      if (working) vk_->watch_queues();
      if (vulkan_overdue()) break;
      drain_waker();
      // The guest is waiting (or idle): hand over the frames still being
      // read, and what viewers typed.
      deliver_input();
      if (out_.size() != 0 && !flush()) break;
      if (const size_t before = gl_->frames_pending()) {
        gl_->collect_frames(FrameReader::Wait::kOldest);
        frames_stuck = gl_->frames_pending() == before;
        if (!flush()) break;
      }
      continue;
    }
    if (std::exchange(idle, false) && on_resume_) on_resume_();
    bool keep = handle_message(*msg);
    channel_->release();
    if (keep) deliver_input();
    if (!keep || !flush() || vulkan_overdue()) break;
  }
}

// Vulkan work past the guest's --submission-timeout cannot be stopped by any
// command: the guest's Vulkan is lost (it hears so first) and the session
// ends, and with it the renderer, which takes the work with it.
bool Session::vulkan_overdue() {
  if (!vk_ || !vk_->work_overdue()) return false;
  const std::string why = "Vulkan work still running after " +
                          std::to_string(account_.limits.submission_timeout_s) + " s (--submission-timeout)";
  lose(static_cast<uint32_t>(wire::vk::VkOp::vkQueueSubmit), wire::make_error(Errc::kTimeout, why));
  flush();
  end_reason_ = why;
  return true;
}

// A program with frames in flight waits, right after it submits a frame,
// for the fence of the frame before. Told of only after the batch that
// submits the next, that fence costs the program a round trip a frame;
// where cores are to spare the session tells of each fence as soon as it
// signals, looking at its fences between looks for the next batch, for
// kFenceWatch after each batch.
bool Session::watching_fences() const {
  return patient_ && vk_ && std::chrono::steady_clock::now() - last_batch_ < kFenceWatch && vk_->fences_untold();
}

bool Session::handle_message(std::span<const std::byte> message) {
  last_batch_ = std::chrono::steady_clock::now();
  auto& c = stats_->counters;
  c.batches.fetch_add(1, kRelaxed);
  c.wire_bytes.fetch_add(message.size(), kRelaxed);
  if (capture_) capture_->begin_batch(message);
  const size_t room = std::min<uint64_t>(account_.room(), SIZE_MAX - kUnchargedBatchBytes);
  auto batch = decoder_.decode(message, kUnchargedBatchBytes + room);
  if (!batch) {
    // Framing or compression broke: the stream cannot be followed any more.
    if (capture_) capture_->end_batch(false, {});
    lose(0, batch.error());
    broken_ = true;
    return flush();
  }
  c.raw_bytes.fetch_add(batch->commands.size(), kRelaxed);
  reply_.clear();
  const size_t charged = batch->commands.size() - std::min(batch->commands.size(), kUnchargedBatchBytes);
  account_.charge_allocated(charged);  // decode() found it fits
  run_commands(batch->commands);
  account_.release(charged);
  decoder_.trim(kUnchargedBatchBytes);
  gl_->end_batch();
  if (vk_) vk_->end_batch();
  stats_->memory_bytes.store(account_.total_bytes, kRelaxed);
  if (gl_->frames_pending()) gl_->collect_frames(FrameReader::Wait::kNone);
  if (batch->flags & wire::kBatchWantsReply) {
    c.round_trips.fetch_add(1, kRelaxed);
    size_t at = out_.begin(static_cast<uint32_t>(wire::ControlOp::kReply));
    out_.put_data(reply_.bytes().data(), reply_.size());
    out_.end(at);
  }
  if (capture_) capture_->end_batch(batch->flags & wire::kBatchWantsReply, reply_.bytes());
  return true;
}

void Session::run_commands(std::span<const std::byte> commands) {
  wire::CommandIterator it(commands);
  uint64_t ran = 0;  // counted once a batch: a shared counter per command costs more than many commands
  while (!it.done()) {
    auto cmd = it.next();
    if (!cmd) {
      lose(0, cmd.error());
      break;  // the rest of the batch cannot be framed
    }
    ++ran;
    const vk::VkHandler::Runner* flat = vk_ ? vk_->flat_runner(cmd->opcode) : nullptr;
    wire::Status st = flat ? vk_->run_flat(*cmd, *flat, heap_copies_) : run_command(*cmd);
    if (!st) lose(cmd->opcode, st.error());
  }
  stats_->counters.commands.fetch_add(ran, kRelaxed);
}

// Each range of the opcode table has its handler (wire/format.h).
wire::Status Session::run_command(const wire::CommandIterator::Command& cmd) {
  const ApiCommand command{cmd.opcode, cmd.offset, cmd.payload, heap_copies_, reply_};
  if (wire::range_of(cmd.opcode) == wire::OpcodeRange::kControl) return run_control(command);
  return handler_of(cmd.opcode).run(command);
}

// A control command's error, or the batch framing's (opcode 0), loses the
// current GL context.
ApiHandler& Session::handler_of(uint32_t opcode) {
  if (opcode != 0 && wire::range_of(opcode) == wire::OpcodeRange::kVulkan) return vk_ ? *vk_ : vulkan();
  return *gl_;
}

vk::VkHandler& Session::vulkan() {
  if (vk_) return *vk_;
  vk::VkHandler::ToGuest to_guest{
      [this](const wire::Frame& f, std::span<const std::byte> px) {
        vk_windows_.insert(f.surface_id);
        send_frame(f, px);
      },
      [this](uint32_t surface_id) {
        if (vk_windows_.erase(surface_id)) withdraw_from_viewers(surface_id);
      },
      [this](std::span<const uint64_t> fences) {
        size_t at = out_.begin(static_cast<uint32_t>(wire::ControlOp::kFencesSignalled));
        out_.put(static_cast<uint32_t>(fences.size()));
        for (uint64_t id : fences) out_.put(id);
        out_.end(at);
        note_fences(fences);
      }};
  vk_ = std::make_unique<vk::VkHandler>(account_, std::move(to_guest), stats_->counters, channel_->shared_area());
  if (capture_ || share_no_memory_) vk_->refuse_area_imports();
  vk_->set_program_cache(program_cache_.get());
  return *vk_;
}

// Every handler's deleted objects, so the account holds what the guest has.
void Session::reclaim() {
  if (gl_) gl_->reclaim();
  if (vk_) vk_->reclaim();
}

// Sticky loss of what the failed command belonged to (its handler says:
// a GL context, the context-less stream, or the guest's Vulkan), logged once
// and told to the guest; the session and every other guest carry on.
void Session::lose(uint32_t opcode, const wire::Error& error) {
  ApiHandler& owner = handler_of(opcode);
  const std::optional<uint32_t> ctx = owner.lose();
  if (!ctx) return;
  stats_->counters.contexts_lost.fetch_add(1, kRelaxed);
  uint64_t dropped = 0;
  if (guest_log_limiter().allow(&dropped)) {
    // Opcode 0 stands for the batch framing itself.
    const char* name = opcode == 0 ? "batch"
                       : wire::range_of(opcode) == wire::OpcodeRange::kControl ? control_op_name(opcode)
                                                                               : owner.command_name(opcode);
    std::string op = name ? name : std::to_string(opcode);
    log_line("session %u: context lost: ctx=%u op=%s off=%zu: %s%s", stats_->id, *ctx, op.c_str(),
             error.offset, error.describe().c_str(),
             dropped ? (" (" + std::to_string(dropped) + " lines dropped)").c_str() : "");
  }
  size_t at = out_.begin(static_cast<uint32_t>(wire::ControlOp::kContextLost));
  const wire::ContextLost lost{*ctx, opcode, static_cast<uint32_t>(error.offset)};
  out_.put(lost);
  out_.end(at);
  note_to_guest(static_cast<uint32_t>(wire::ControlOp::kContextLost), std::as_bytes(std::span(&lost, 1)));
}

void Session::send_frame(const wire::Frame& frame, std::span<const std::byte> pixels) {
  const std::span<std::byte> room = place_frame(frame);
  std::memcpy(room.data(), pixels.data(), std::min(room.size(), pixels.size()));
  frame_placed(frame, room);
}

// A frame goes in a batch of its own, its pixels in the shared heap where
// the channel has one.
std::span<std::byte> Session::place_frame(const wire::Frame& frame) {
  flush();
  frame_at_ = out_.begin(static_cast<uint32_t>(wire::ControlOp::kFrame));
  out_.put(frame);
  return out_.put_data_place(size_t{frame.stride} * frame.height);
}

// Uncompressed where its pixels go inside the message to a peer on this
// machine: compressing megabytes costs far more time than moving them.
void Session::frame_placed(const wire::Frame& frame, std::span<const std::byte> pixels) {
  out_.end(frame_at_);
  stats_->counters.frames.fetch_add(1, kRelaxed);
  stats_->counters.frame_bytes.fetch_add(pixels.size(), kRelaxed);
  note_frame(frame, pixels);  // while the pixels are where they were written
  publish_to_viewers(frame, pixels);
  if (channel_->local() && !channel_->outgoing_heap()) {
    const wire::Compression mode = encoder_.mode();
    encoder_.set_mode(wire::Compression::kOff);
    flush();
    encoder_.set_mode(mode);
  }
}

// Goes out ahead of the reply of the batch that linked, so the guest has it
// before it asks anything after the link.
void Session::send_program_linked(const wire::ProgramLinked& linked, std::span<const std::byte> reflection) {
  wire::Writer payload;
  payload.put(linked);
  payload.put_data(reflection.data(), reflection.size());
  size_t at = out_.begin(static_cast<uint32_t>(wire::ControlOp::kProgramReflection));
  std::memcpy(out_.put_zeroed(payload.size()), payload.bytes().data(), payload.size());
  out_.end(at);
  note_to_guest(static_cast<uint32_t>(wire::ControlOp::kProgramReflection), payload.bytes());
}

bool Session::flush() {
  if (out_.size() == 0) return true;
  auto msg = encoder_.encode(out_.bytes());
  out_.clear();
  wire::Status sent = msg ? channel_->send(*msg) : wire::Status(msg.error());
  // The guest's end shows first where the host writes to it (a guest
  // killed while the host answers): the log says so, not "host stopping".
  if (!sent && end_reason_.empty()) end_reason_ = sent.error().describe();
  return sent.ok();
}

// The handlers first: they hand back surfaces and charges as they go.
void Session::teardown() {
  gl_.reset();
  for (uint32_t id : vk_windows_) withdraw_from_viewers(id);
  vk_windows_.clear();
  vk_.reset();
}

}  // namespace host
