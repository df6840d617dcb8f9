// Channels handed from one process to another (wire/handoff.h).
#include "wire/handoff.h"

#include <sys/socket.h>
#include <unistd.h>

#include <utility>

#include "shm_channel.h"
#include "socket_stream.h"

namespace wire {

using transport::Fd;

ChannelHandoff::~ChannelHandoff() {
  for (int fd : fds) {
    if (fd >= 0) ::close(fd);
  }
}

ChannelHandoff::ChannelHandoff(ChannelHandoff&& o) noexcept
    : kind(o.kind),
      description(std::move(o.description)),
      region_bytes(o.region_bytes),
      fds(std::exchange(o.fds, {})),
      on_release(std::exchange(o.on_release, nullptr)),
      peer_gone(std::exchange(o.peer_gone, nullptr)) {}

ChannelHandoff& ChannelHandoff::operator=(ChannelHandoff&& o) noexcept {
  if (this != &o) {
    ChannelHandoff gone(std::move(*this));
    kind = o.kind;
    description = std::move(o.description);
    region_bytes = o.region_bytes;
    fds = std::exchange(o.fds, {});
    on_release = std::exchange(o.on_release, nullptr);
    peer_gone = std::exchange(o.peer_gone, nullptr);
  }
  return *this;
}

Result<ChannelHandoff> Channel::export_handoff() {
  return make_error(Errc::kBadValue, describe() + " cannot move to another process");
}

namespace {

// Takes descriptor `i` out of the handoff, so that it is closed only once.
Fd take(ChannelHandoff& h, size_t i) { return Fd(std::exchange(h.fds[i], -1)); }

Result<std::unique_ptr<Channel>> adopt_region(ChannelHandoff& h, const TransportOptions& opts) {
  const bool bells = h.kind == ChannelHandoff::Kind::kShm;
  if (h.fds.size() != (bells ? 6u : 1u)) return make_error(Errc::kBadValue, "handoff descriptors");
  Fd region = take(h, 0);
  auto map = transport::shm::Mapping::map(region.get(), h.region_bytes);
  if (!map) return map.error();
  auto layout = transport::shm::read_layout((*map)->base(), (*map)->size());
  if (!layout) return layout.error();
  std::optional<transport::shm::Doorbells> doorbells;
  if (bells) {
    doorbells.emplace();
    doorbells->data[0] = take(h, 1);
    doorbells->space[0] = take(h, 2);
    doorbells->data[1] = take(h, 3);
    doorbells->space[1] = take(h, 4);
    doorbells->socket = take(h, 5);
  }
  std::unique_ptr<Channel> ch = std::make_unique<transport::shm::ShmChannel>(
      std::move(*map), *layout, 0, std::move(doorbells), opts, h.description);
  return ch;
}

}  // namespace

Result<std::unique_ptr<Channel>> adopt_channel(ChannelHandoff h, const TransportOptions& opts) {
  switch (h.kind) {
    case ChannelHandoff::Kind::kStream: {
      if (h.fds.size() != 1 && h.fds.size() != 2) return make_error(Errc::kBadValue, "handoff descriptors");
      std::unique_ptr<transport::StreamHeaps> heaps;
      if (h.fds.size() == 2) {  // blob heaps the exporting listener made: side 0
        Fd file = take(h, 1);
        auto attached = transport::StreamHeaps::attach(file.get(), h.region_bytes, 0);
        if (!attached) return attached.error();
        heaps = std::move(*attached);
      }
      std::unique_ptr<Channel> ch =
          std::make_unique<transport::StreamChannel>(take(h, 0), h.description, opts, std::move(heaps));
      return ch;
    }
    case ChannelHandoff::Kind::kShm:
    case ChannelHandoff::Kind::kShmFile:
      return adopt_region(h, opts);
  }
  return make_error(Errc::kBadValue, "handoff kind " + std::to_string(static_cast<uint32_t>(h.kind)));
}

Result<std::pair<std::unique_ptr<Channel>, std::unique_ptr<Channel>>> socket_pair_channels(
    const TransportOptions& opts) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0) {
    return transport::errno_error("socketpair");
  }
  std::unique_ptr<Channel> a = std::make_unique<transport::StreamChannel>(Fd(sv[0]), "relay", opts);
  std::unique_ptr<Channel> b = std::make_unique<transport::StreamChannel>(Fd(sv[1]), "relay", opts);
  return std::pair{std::move(a), std::move(b)};
}

}  // namespace wire
