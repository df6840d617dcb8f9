// Frames the host finished for one window surface, waiting to be presented.
// Only the newest is kept: an older one that was never shown is dropped
// (and reported done) rather than shown late.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "conn/connection.h"

namespace icd {

class FrameQueue final : public FrameSink {
 public:
  struct Ready {
    wire::Frame frame{};
    std::vector<std::byte> pixels;
    std::vector<uint32_t> done_ids;  // every frame id taken, shown or dropped
  };

  void on_frame(const wire::Frame& frame, std::span<const std::byte> pixels) override;

  // Moves the newest waiting frame into `out`; false when none waits.
  bool take(Ready& out);

  uint32_t last_received() const { return last_received_; }

 private:
  std::mutex mu_;
  bool waiting_ = false;
  Ready pending_;
  std::atomic<uint32_t> last_received_{0};
};

}  // namespace icd
