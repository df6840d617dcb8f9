#include "host/frame_outlet.h"

#include "host/log.h"

namespace host {

comp::FrameBoardWriter* FrameOutlet::board_for(const BoardAnnouncement& who) {
  const Key key{who.session, who.surface};
  {
    std::lock_guard lock(mutex_);
    auto it = boards_.find(key);
    if (it != boards_.end() && it->second->size().width == who.width && it->second->size().height == who.height) {
      return it->second.get();
    }
  }
  auto board = comp::FrameBoardWriter::create({who.width, who.height});
  if (!board) {
    log_line("session %u: no frame board for viewers: %s", who.session, board.error().describe().c_str());
    return nullptr;
  }
  announce_(who, **board);
  std::lock_guard lock(mutex_);
  auto& slot = boards_[key];
  slot = std::move(*board);
  return slot.get();
}

void FrameOutlet::publish(const BoardAnnouncement& who, const wire::Frame& frame, std::span<const std::byte> pixels) {
  // Boards hold rows packed: frames whose rows are padded go row by row.
  if (frame.stride != frame.width * 4) return;
  comp::FrameBoardWriter* board = board_for(who);
  if (board) board->publish(pixels, frame.frame_id);
}

void FrameOutlet::withdraw(uint32_t session, uint32_t surface) {
  {
    std::lock_guard lock(mutex_);
    if (boards_.erase({session, surface}) == 0) return;
  }
  withdraw_(session, surface);
}

}  // namespace host
