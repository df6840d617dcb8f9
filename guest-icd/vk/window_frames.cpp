#include "vk/window_frames.h"

#include "vk/entry.h"
#include "wire/vk_memory.h"

namespace icd::vk {

std::unique_ptr<WindowFrames> WindowFrames::open(Presenter& presenter) {
  auto conn = vulkan_connection();
  if (!conn) return nullptr;
  return std::unique_ptr<WindowFrames>(new WindowFrames(presenter, std::move(conn)));
}

WindowFrames::WindowFrames(Presenter& presenter, std::shared_ptr<Connection> conn)
    : presenter_(presenter), conn_(std::move(conn)), id_(conn_->new_id()) {
  conn_->add_sink(id_, this);
}

WindowFrames::~WindowFrames() {
  conn_->remove_sink(id_);
  send_async(static_cast<uint32_t>(wire::vk::MemoryOp::kWindowGone),
             [&](wire::Writer& w) { w.put(wire::vk::WindowGone{id_}); });
  send_commands_now();
}

// On the connection's receiving thread.
void WindowFrames::on_frame(const wire::Frame& f, std::span<const std::byte> pixels) {
  TimedNs timed(conn_->stats().present_ns);
  if (presenter_.present(f, pixels, conn_->incoming_file())) {
    conn_->stats().frames++;
    if (presenter_.put_in_place()) conn_->stats().frames_in_place++;
  }
  received_ = f.frame_id;
}

}  // namespace icd::vk
