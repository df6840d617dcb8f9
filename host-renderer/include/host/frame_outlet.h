// Where a renderer's finished window frames go besides their guest: one
// frame board per surface, shared with the compositor of `conduit host`
// (--window, --vnc), which takes the newest frame at its own pace.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "comp/frame_board.h"
#include "wire/control.h"

namespace host {

// Who a board's frames belong to, for the compositor's labels.
struct BoardAnnouncement {
  uint32_t session = 0, surface = 0;
  uint32_t width = 0, height = 0;
  std::string program;
  uint32_t pid = 0;
};

class FrameOutlet {
 public:
  // `announce` hands a new board (a surface's first frame, or a new size)
  // to the compositor; `withdraw` says a surface is gone. Both are called
  // on the thread of the session concerned.
  using Announce = std::function<void(const BoardAnnouncement&, const comp::FrameBoardWriter&)>;
  using Withdraw = std::function<void(uint32_t session, uint32_t surface)>;
  FrameOutlet(Announce announce, Withdraw withdraw)
      : announce_(std::move(announce)), withdraw_(std::move(withdraw)) {}

  // Any session thread; one session's surfaces only from its own thread.
  void publish(const BoardAnnouncement& who, const wire::Frame& frame, std::span<const std::byte> pixels);
  void withdraw(uint32_t session, uint32_t surface);

 private:
  using Key = std::pair<uint32_t, uint32_t>;  // session, surface
  comp::FrameBoardWriter* board_for(const BoardAnnouncement& who);

  Announce announce_;
  Withdraw withdraw_;
  std::mutex mutex_;  // guards the map; a board is written only by its session's thread
  std::map<Key, std::unique_ptr<comp::FrameBoardWriter>> boards_;
};

}  // namespace host
