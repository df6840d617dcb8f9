// A minimal guest for host tests: builds batches by hand (or with the
// generated encoders), sends them over a real transport and records what the
// host sends back (replies, frames, lost contexts).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "wire/batch.h"
#include "wire/control.h"
#include "wire/transport.h"
#include "wire/writer.h"

namespace hosttest {

using namespace std::chrono_literals;

struct ReceivedFrame {
  wire::Frame frame{};
  std::vector<std::byte> pixels;  // BGRA, top row first

  // Pixel (x, y) from the top-left as 0xAARRGGBB.
  uint32_t argb(uint32_t x, uint32_t y) const;
};

class TestGuest {
 public:
  // nullptr when the host cannot be reached.
  static std::unique_ptr<TestGuest> connect(const std::string& address);
  explicit TestGuest(std::unique_ptr<wire::Channel> channel);

  wire::Writer& w() { return batch_; }
  template <typename T>
  void control(wire::ControlOp op, const T& payload) {
    size_t at = batch_.begin(static_cast<uint32_t>(op));
    batch_.put(payload);
    batch_.end(at);
  }
  void control(wire::ControlOp op) { batch_.end(batch_.begin(static_cast<uint32_t>(op))); }

  // Sends the commands built so far (or `raw` bytes) as one batch.
  wire::Status send(uint16_t flags = 0);
  wire::Status send_raw(std::span<const std::byte> raw, uint16_t flags = 0);
  // Sends `message` as it is, batch header included.
  wire::Status send_message(std::span<const std::byte> message) { return channel_->send(message); }
  // Sends with kBatchWantsReply and waits for the reply's bytes.
  wire::Result<std::vector<std::byte>> call(std::chrono::milliseconds timeout = 10s);

  // `timeout`: how long the host may take to start serving this guest.
  wire::Result<wire::HelloReply> hello(std::chrono::milliseconds timeout = 10s);
  // The kCreateContext status (0 = ok), or ~0u when no reply came.
  uint32_t create_context(uint32_t id, wire::Api api, uint32_t major, uint32_t minor,
                          wire::Profile profile = wire::Profile::kNone, uint32_t share = 0);
  // `flags`: wire::kSurfaceDoubleBuffered for a window.
  void create_surface(uint32_t id, uint32_t width, uint32_t height, uint32_t flags = 0);
  void make_current(uint32_t ctx, uint32_t draw, uint32_t read);
  void swap(uint32_t surface, uint32_t frame_id);

  // Receives until a frame (or a lost context) arrives; false on timeout or close.
  bool wait_frame(ReceivedFrame* out, std::chrono::milliseconds timeout = 10s);
  bool wait_lost(wire::ContextLost* out, std::chrono::milliseconds timeout = 10s);
  // True once the host closed the connection.
  bool wait_closed(std::chrono::milliseconds timeout = 10s);

  // Over a ring file (shm:file=PATH): the blob heap the host reads, mapped
  // writable a second time so a test can change bytes after sending
  // references to them (kHeap Data at offsets of its choosing). Empty for
  // other transports.
  std::span<std::byte> heap_to_host() const { return heap_to_host_; }

  std::deque<ReceivedFrame> frames;
  std::deque<wire::ContextLost> lost;
  std::string refusal;  // why the host turned this guest away (kRefused), if it did

 private:
  // Receives one message; records events; fills `reply` on kReply.
  wire::Status pump(std::chrono::milliseconds timeout, std::vector<std::byte>* reply, bool* got_reply);

  void map_ring_file(const std::string& path);

  std::unique_ptr<wire::Channel> channel_;
  std::shared_ptr<std::byte> ring_file_;  // the second mapping of a ring file
  std::span<std::byte> heap_to_host_;
  wire::BatchEncoder encoder_;
  wire::BatchDecoder decoder_{256u << 20};
  wire::Writer batch_;
  bool closed_ = false;
};

}  // namespace hosttest
