#include "test_guest.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "shm_ring.h"
#include "wire/address.h"
#include "wire/reader.h"

namespace hosttest {

using wire::ControlOp;

uint32_t ReceivedFrame::argb(uint32_t x, uint32_t y) const {
  size_t at = size_t{frame.stride} * y + size_t{x} * 4;
  if (at + 4 > pixels.size()) return 0;
  uint32_t v;
  std::memcpy(&v, pixels.data() + at, 4);  // B, G, R, A in memory = 0xAARRGGBB little-endian
  return v;
}

std::unique_ptr<TestGuest> TestGuest::connect(const std::string& address) {
  auto ch = wire::connect(address);
  if (!ch) return nullptr;
  auto guest = std::make_unique<TestGuest>(std::move(*ch));
  auto where = wire::Address::parse(address);
  if (where && where->kind == wire::Address::Kind::kShmFile) guest->map_ring_file(where->path);
  return guest;
}

void TestGuest::map_ring_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  void* p = ::fstat(fd, &st) == 0 ? ::mmap(nullptr, static_cast<size_t>(st.st_size),
                                           PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                                  : MAP_FAILED;
  ::close(fd);
  if (p == MAP_FAILED) return;
  const auto size = static_cast<size_t>(st.st_size);
  ring_file_ = std::shared_ptr<std::byte>(static_cast<std::byte*>(p),
                                          [size](std::byte* b) { ::munmap(b, size); });
  auto layout = wire::transport::shm::read_layout(ring_file_.get(), size);
  // Side 0, the listening host, reads the heap of direction 0.
  if (layout) heap_to_host_ = {ring_file_.get() + layout->heap_offset[0], layout->heap_bytes};
}

TestGuest::TestGuest(std::unique_ptr<wire::Channel> channel) : channel_(std::move(channel)) {}

wire::Status TestGuest::send(uint16_t flags) {
  auto st = send_raw(batch_.bytes(), flags);
  batch_.clear();
  return st;
}

wire::Status TestGuest::send_raw(std::span<const std::byte> raw, uint16_t flags) {
  auto msg = encoder_.encode(raw, flags);
  if (!msg) return msg.error();
  return channel_->send(*msg);
}

wire::Result<std::vector<std::byte>> TestGuest::call(std::chrono::milliseconds timeout) {
  WIRE_TRY(send(wire::kBatchWantsReply));
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<std::byte> reply;
  bool got = false;
  while (!got) {
    if (std::chrono::steady_clock::now() > deadline) return wire::make_error(wire::Errc::kTimeout, "no reply");
    WIRE_TRY(pump(20ms, &reply, &got));
  }
  return reply;
}

wire::Status TestGuest::pump(std::chrono::milliseconds timeout, std::vector<std::byte>* reply, bool* got_reply) {
  if (closed_) return wire::make_error(wire::Errc::kClosed, "closed");
  auto msg = channel_->receive(timeout);
  if (!msg) {
    if (msg.error().code == wire::Errc::kTimeout) return {};
    closed_ = true;
    return msg.error();
  }
  auto batch = decoder_.decode(*msg);
  if (!batch) return batch.error();
  wire::CommandIterator it(batch->commands);
  while (!it.done()) {
    auto cmd = it.next();
    if (!cmd) return cmd.error();
    wire::Reader r(cmd->payload, cmd->offset, channel_->incoming_heap());
    switch (static_cast<ControlOp>(cmd->opcode)) {
      case ControlOp::kReply: {
        auto d = r.get_data();
        if (!d) return d.error();
        if (reply) reply->assign(d->bytes.begin(), d->bytes.end());
        if (got_reply) *got_reply = true;
        break;
      }
      case ControlOp::kFrame: {
        ReceivedFrame f;
        auto hdr = r.get<wire::Frame>();
        auto d = r.get_data();
        if (!hdr || !d) return wire::make_error(wire::Errc::kTruncated, "frame");
        f.frame = *hdr;
        f.pixels.assign(d->bytes.begin(), d->bytes.end());
        frames.push_back(std::move(f));
        break;
      }
      case ControlOp::kContextLost: {
        auto l = r.get<wire::ContextLost>();
        if (!l) return l.error();
        lost.push_back(*l);
        break;
      }
      case ControlOp::kRefused: {
        auto d = r.get_data();
        if (!d) return d.error();
        refusal.assign(reinterpret_cast<const char*>(d->bytes.data()), d->bytes.size());
        channel_->release();
        return wire::make_error(wire::Errc::kLimit, "refused: " + refusal);
      }
      default:
        return wire::make_error(wire::Errc::kUnknownOpcode, "host sent op " + std::to_string(cmd->opcode));
    }
  }
  channel_->release();
  return {};
}

wire::Result<wire::HelloReply> TestGuest::hello(std::chrono::milliseconds timeout) {
  control(ControlOp::kHello,
          wire::Hello{wire::kProtocolVersion, wire::kFeatureCompression | wire::kFeatureBlobHeap,
                      static_cast<uint32_t>(getpid())});
  auto reply = call(timeout);
  if (!reply) return reply.error();
  wire::Reader r(*reply, 0);
  return r.get<wire::HelloReply>();
}

uint32_t TestGuest::create_context(uint32_t id, wire::Api api, uint32_t major, uint32_t minor,
                                   wire::Profile profile, uint32_t share) {
  control(ControlOp::kCreateContext,
          wire::CreateContext{id, share, static_cast<uint32_t>(api), major, minor,
                              static_cast<uint32_t>(profile), 0});
  auto reply = call();
  if (!reply) return ~0u;
  wire::Reader r(*reply, 0);
  auto status = r.get<uint32_t>();
  return status ? *status : ~0u;
}

void TestGuest::create_surface(uint32_t id, uint32_t width, uint32_t height, uint32_t flags) {
  control(ControlOp::kCreateSurface, wire::CreateSurface{id, width, height, {8, 8, 8, 8, 24, 8, 0}, flags});
}

void TestGuest::make_current(uint32_t ctx, uint32_t draw, uint32_t read) {
  control(ControlOp::kMakeCurrent, wire::MakeCurrent{ctx, draw, read});
}

void TestGuest::swap(uint32_t surface, uint32_t frame_id) {
  control(ControlOp::kSwapBuffers, wire::SwapBuffers{surface, frame_id});
}

bool TestGuest::wait_frame(ReceivedFrame* out, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (frames.empty()) {
    if (std::chrono::steady_clock::now() > deadline || !pump(20ms, nullptr, nullptr)) return false;
  }
  if (out) *out = std::move(frames.front());
  frames.pop_front();
  return true;
}

bool TestGuest::wait_lost(wire::ContextLost* out, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (lost.empty()) {
    if (std::chrono::steady_clock::now() > deadline || !pump(20ms, nullptr, nullptr)) return false;
  }
  if (out) *out = lost.front();
  lost.pop_front();
  return true;
}

bool TestGuest::wait_closed(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!closed_ && std::chrono::steady_clock::now() < deadline) (void)pump(20ms, nullptr, nullptr);
  return closed_;
}

}  // namespace hosttest
