// The frames the host sends for one window surface: one id for the
// surface's whole life (swapchains come and go with its size), shown in its
// window as they arrive, and the host's viewers told when it goes.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "conn/connection.h"
#include "x11/presenter.h"

namespace icd::vk {

class WindowFrames final : public FrameSink {
 public:
  // Null when this program's Vulkan has no connection any more.
  static std::unique_ptr<WindowFrames> open(Presenter& presenter);
  ~WindowFrames() override;
  WindowFrames(const WindowFrames&) = delete;
  WindowFrames& operator=(const WindowFrames&) = delete;

  uint32_t id() const { return id_; }
  Connection& connection() { return *conn_; }
  // Frame ids go on across the surface's swapchains.
  uint32_t next_frame() { return ++sent_; }
  // The last frame that came back.
  uint32_t received() const { return received_; }

  void on_frame(const wire::Frame& f, std::span<const std::byte> pixels) override;
  void on_input(const wire::Input& input) override { presenter_.send_input(input); }
  bool acknowledged() const override { return false; }

 private:
  WindowFrames(Presenter& presenter, std::shared_ptr<Connection> conn);

  Presenter& presenter_;
  std::shared_ptr<Connection> conn_;
  uint32_t id_;
  uint32_t sent_ = 0;
  std::atomic<uint32_t> received_{0};
};

}  // namespace icd::vk
