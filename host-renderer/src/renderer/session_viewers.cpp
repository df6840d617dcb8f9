// The session's side of host viewers: window frames copied to the
// compositor's frame boards, and viewers' input carried to the guest.
#include "host/session.h"

#include "gl/gl_handler.h"
#include "host/log.h"

namespace host {

namespace {
// Input waiting for the guest beyond this is dropped: a guest that stopped
// reading must not grow the host's memory.
constexpr size_t kMaxQueuedInput = 256;
constexpr uint64_t kBoardSlots = 3;
}  // namespace

void Session::set_frame_outlet(FrameOutlet* outlet) { outlet_ = outlet; }

// A board holds three frames of the surface; they count against the
// guest's memory like the surface itself.
bool Session::charge_board(uint32_t surface_id, const wire::Frame& frame) {
  const uint64_t bytes = kBoardSlots * frame.stride * frame.height;
  uint64_t& held = board_bytes_[surface_id];
  if (held == bytes) return true;
  account_.release(held);
  held = 0;
  if (!account_.try_charge(bytes)) {
    log_line("session %u: surface %u not shown to viewers: guest memory limit", stats_->id, surface_id);
    return false;
  }
  held = bytes;
  return true;
}

void Session::publish_to_viewers(const wire::Frame& frame, std::span<const std::byte> pixels) {
  if (!outlet_) return;
  // A GL window surface, or a Vulkan one (only windows' frames come from Vulkan).
  const Surface* surface = gl_->surface(frame.surface_id);
  const bool window = surface ? surface->window() : vk_windows_.count(frame.surface_id) != 0;
  if (!window || !charge_board(frame.surface_id, frame)) return;
  const BoardAnnouncement who{stats_->id, frame.surface_id, frame.width, frame.height, program_,
                              stats_->guest_pid};
  outlet_->publish(who, frame, pixels);
}

void Session::withdraw_from_viewers(uint32_t surface_id) {
  auto held = board_bytes_.find(surface_id);
  if (held == board_bytes_.end()) return;
  account_.release(held->second);
  board_bytes_.erase(held);
  if (outlet_) outlet_->withdraw(stats_->id, surface_id);
}

void Session::queue_input(const wire::Input& input) {
  std::lock_guard lock(input_mutex_);
  if (input_.size() < kMaxQueuedInput) input_.push_back(input);
  wake();
}

// Called between batches: the guest's receiving thread takes the events
// whenever they come, also while the program waits for input.
void Session::deliver_input() {
  std::vector<wire::Input> events;
  {
    std::lock_guard lock(input_mutex_);
    events.swap(input_);
  }
  for (const wire::Input& in : events) {
    if (!gl_->surface(in.surface_id)) continue;
    size_t at = out_.begin(static_cast<uint32_t>(wire::ControlOp::kInput));
    out_.put(in);
    out_.end(at);
  }
}

}  // namespace host
