#include "egl/frame_queue.h"

namespace icd {

void FrameQueue::on_frame(const wire::Frame& frame, std::span<const std::byte> pixels) {
  const size_t need = static_cast<size_t>(frame.stride) * frame.height;
  std::lock_guard lock(mu_);
  // A frame whose pixels do not fit its own description is reported done
  // and never shown.
  if (frame.stride < static_cast<size_t>(frame.width) * 4 || pixels.size() < need) {
    pending_.done_ids.push_back(frame.frame_id);
  } else {
    pending_.frame = frame;
    pending_.pixels.assign(pixels.begin(), pixels.begin() + static_cast<ptrdiff_t>(need));
    pending_.done_ids.push_back(frame.frame_id);
    waiting_ = true;
  }
  if (frame.frame_id > last_received_) last_received_ = frame.frame_id;
}

bool FrameQueue::take(Ready& out) {
  std::lock_guard lock(mu_);
  if (!waiting_ && pending_.done_ids.empty()) return false;
  std::swap(out.pixels, pending_.pixels);
  out.frame = pending_.frame;
  out.done_ids = std::move(pending_.done_ids);
  pending_.done_ids.clear();
  const bool had_frame = waiting_;
  waiting_ = false;
  if (!had_frame) out.frame = {};
  return true;
}

}  // namespace icd
