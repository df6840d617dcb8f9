// shm:PATH — shared-memory rings for peers on one kernel. The listener owns
// a unix socket at PATH; for each client it creates a sealed memfd region
// and four eventfd doorbells and passes them over the socket (SCM_RIGHTS).
// The socket then stays open only so that either side sees the other die.
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mutex>

#include "handshake.h"
#include "local_access.h"
#include "shm_channel.h"
#include "socket_pending_peer.h"
#include "transports.h"

namespace wire::transport {
namespace {

using shm::Doorbells;
using shm::Layout;
using shm::Mapping;
using shm::ShmChannel;

constexpr size_t kBellCount = 4;  // data[0], space[0], data[1], space[1]

Result<Doorbells> create_bells(Fd socket) {
  Doorbells bells;
  for (Fd* bell : {&bells.data[0], &bells.space[0], &bells.data[1], &bells.space[1]}) {
    *bell = Fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!bell->valid()) return errno_error("eventfd");
  }
  bells.socket = std::move(socket);
  return bells;
}

// Creates the region and doorbells and hands them over.
Result<std::unique_ptr<Channel>> serve(Fd sock, const Layout& layout, const TransportOptions& opts,
                                       std::string description, const Deadline& handshake) {
  auto region = create_sealed_file("conduit-shm", layout.total_bytes);
  if (!region) return region.error();
  auto map = Mapping::map(region->get(), layout.total_bytes);
  if (!map) return map.error();
  shm::init_region((*map)->base(), layout, shm::kConnected);
  int sock_fd = sock.get();
  auto bells = create_bells(std::move(sock));
  if (!bells) return bells.error();
  int fds[1 + kBellCount] = {region->get(), bells->data[0].get(), bells->space[0].get(),
                             bells->data[1].get(), bells->space[1].get()};
  WIRE_TRY(send_reply(sock_fd, LinkReply{kLinkOk, 0, layout.total_bytes}, fds, handshake));
  std::unique_ptr<Channel> ch = std::make_unique<ShmChannel>(
      std::move(*map), layout, 0, std::move(*bells), opts, std::move(description));
  return ch;
}

// The handshake runs in complete(): uid, then kind and token, then the region.
class ShmPendingPeer final : public SocketPendingPeer {
 public:
  ShmPendingPeer(Fd sock, PeerIdentity peer, Layout layout, TransportOptions opts)
      : SocketPendingPeer(std::move(sock), std::move(peer)), layout_(layout), opts_(std::move(opts)) {}

 private:
  Result<std::unique_ptr<Channel>> handshake(Fd sock) override {
    Deadline deadline(opts_.io_timeout);
    auto hello = read_hello(sock.get(), deadline);
    if (!hello) return hello.error();
    if (auto allowed = check_peer_allowed(peer(), opts_); !allowed) {
      return refuse(sock.get(), kLinkPeerNotAllowed, allowed.error(), deadline);
    }
    WIRE_TRY(check_hello(sock.get(), *hello, LinkKind::kShm, opts_.token, deadline));
    return serve(std::move(sock), layout_, opts_, peer().address + " (peer)", deadline);
  }

  Layout layout_;
  TransportOptions opts_;
};

class ShmListener final : public Listener {
 public:
  ShmListener(Fd fd, std::string path, Layout layout, TransportOptions opts)
      : fd_(std::move(fd)), path_(std::move(path)), layout_(layout), opts_(std::move(opts)) {}
  ~ShmListener() override {
    if (path_[0] != '@') ::unlink(path_.c_str());
  }

  Result<std::unique_ptr<PendingPeer>> accept_peer(std::chrono::milliseconds timeout) override {
    auto sock = accept_fd(fd_.get(), Deadline(timeout));
    if (!sock) return sock.error();
    PeerIdentity peer = unix_peer_identity(sock->get(), describe());
    std::unique_ptr<PendingPeer> pending =
        std::make_unique<ShmPendingPeer>(std::move(*sock), std::move(peer), layout_, opts_);
    return pending;
  }

  std::string describe() const override { return "shm:" + path_; }

 private:
  Fd fd_;
  std::string path_;
  Layout layout_;
  TransportOptions opts_;
};

}  // namespace

Result<std::unique_ptr<Channel>> shm_connect_channel(const Address& a,
                                                     const TransportOptions& opts) {
  Deadline deadline(opts.io_timeout);
  auto sock = unix_connect(a.path, deadline);
  if (!sock) return sock.error();
  WIRE_TRY(send_hello(sock->get(), LinkKind::kShm, opts.token, deadline));
  Fd fds[1 + kBellCount];
  auto reply = read_reply(sock->get(), fds, deadline);
  if (!reply) return reply.error();
  struct stat st;
  if (::fstat(fds[0].get(), &st) < 0) return errno_error("fstat shared region");
  if (static_cast<uint64_t>(st.st_size) < reply->region_bytes || reply->region_bytes == 0) {
    return make_error(Errc::kBadLength, "shared region smaller than announced");
  }
  auto map = Mapping::map(fds[0].get(), reply->region_bytes);
  if (!map) return map.error();
  auto layout = shm::read_layout((*map)->base(), (*map)->size());
  if (!layout) return layout.error();
  Doorbells bells;
  bells.data[0] = std::move(fds[1]);
  bells.space[0] = std::move(fds[2]);
  bells.data[1] = std::move(fds[3]);
  bells.space[1] = std::move(fds[4]);
  bells.socket = std::move(*sock);
  std::unique_ptr<Channel> ch = std::make_unique<ShmChannel>(
      std::move(*map), *layout, 1, std::move(bells), opts, a.describe());
  return ch;
}

Result<std::unique_ptr<Listener>> shm_listen_channel(const Address& a,
                                                     const TransportOptions& opts) {
  auto layout = shm::make_layout(opts.ring_bytes, opts.heap_bytes, opts.area_bytes);
  if (!layout) return layout.error();
  WIRE_TRY(prepare_socket_dir(a.path, opts));
  auto fd = unix_listen(a.path);
  if (!fd) return fd.error();
  WIRE_TRY(restrict_socket(a.path, opts));
  std::unique_ptr<Listener> l =
      std::make_unique<ShmListener>(std::move(*fd), a.path, *layout, opts);
  return l;
}

}  // namespace wire::transport
