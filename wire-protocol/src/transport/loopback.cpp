#include "wire/loopback.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace wire {
namespace {

// One direction: a queue of whole messages.
struct Pipe {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::vector<std::byte>> messages;
  bool closed = false;
};

class LoopbackChannel final : public Channel {
 public:
  LoopbackChannel(std::shared_ptr<Pipe> out, std::shared_ptr<Pipe> in)
      : out_(std::move(out)), in_(std::move(in)) {}
  ~LoopbackChannel() override { close(); }

  Status send(std::span<const std::byte> message) override {
    std::lock_guard lock(out_->mutex);
    if (out_->closed) return make_error(Errc::kClosed, "loopback peer closed");
    out_->messages.emplace_back(message.begin(), message.end());
    out_->ready.notify_one();
    return {};
  }

  Result<std::span<const std::byte>> receive(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(in_->mutex);
    if (!in_->ready.wait_for(lock, timeout,
                             [&] { return !in_->messages.empty() || in_->closed; })) {
      return make_error(Errc::kTimeout, "loopback: nothing received");
    }
    if (in_->messages.empty()) return make_error(Errc::kClosed, "loopback peer closed");
    current_ = std::move(in_->messages.front());
    in_->messages.pop_front();
    return std::span<const std::byte>(current_);
  }

  void release() override { current_.clear(); }
  BlobSink* outgoing_heap() override { return nullptr; }
  std::span<const std::byte> incoming_heap() override { return {}; }

  void close() override {
    for (auto* pipe : {out_.get(), in_.get()}) {
      std::lock_guard lock(pipe->mutex);
      pipe->closed = true;
      pipe->ready.notify_all();
    }
  }

  std::string describe() const override { return "loopback"; }

 private:
  std::shared_ptr<Pipe> out_, in_;
  std::vector<std::byte> current_;
};

}  // namespace

std::pair<std::unique_ptr<Channel>, std::unique_ptr<Channel>> make_loopback() {
  auto a_to_b = std::make_shared<Pipe>();
  auto b_to_a = std::make_shared<Pipe>();
  return {std::make_unique<LoopbackChannel>(a_to_b, b_to_a),
          std::make_unique<LoopbackChannel>(b_to_a, a_to_b)};
}

}  // namespace wire
