// shm:file=PATH — a shared region in a plain file, for peers that can only
// poll it: a QEMU guest sees such a file (e.g. under /dev/shm) as the BAR of
// an `ivshmem-plain` device, which has no doorbell. The listener creates the
// file and serves one peer at a time; liveness comes from heartbeats.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <thread>

#include "local_access.h"
#include "shm_channel.h"
#include "transports.h"

namespace wire::transport {
namespace {

using shm::Layout;
using shm::Mapping;
using shm::ShmChannel;

// A peer attaching is answered within a few ms; a listener waiting for one
// polls slower, so that an idle host costs nothing.
constexpr auto kAttachPoll = std::chrono::milliseconds(1);
constexpr auto kListenPoll = std::chrono::milliseconds(10);

std::atomic<uint32_t>& attach_state(Mapping& map) { return shm::control(map.base())->header.state; }

// Polls `done` until it holds or the deadline passes.
template <typename F>
bool poll_until(F done, const Deadline& deadline, std::chrono::milliseconds period = kAttachPoll) {
  while (!done()) {
    if (deadline.expired()) return false;
    std::this_thread::sleep_for(period);
  }
  return true;
}

// A peer that attached; until complete() answers it, the region stays
// busy, and dropping it unanswered frees the listener for the next one.
class FilePendingPeer final : public PendingPeer {
 public:
  FilePendingPeer(std::shared_ptr<Mapping> map, Layout layout, TransportOptions opts,
                  std::string description, std::shared_ptr<std::atomic<bool>> busy)
      : map_(std::move(map)), layout_(layout), opts_(std::move(opts)), busy_(std::move(busy)) {
    peer_.address = std::move(description);
  }
  ~FilePendingPeer() override {
    if (busy_) busy_->store(false);
  }

  const PeerIdentity& peer() const override { return peer_; }

  Result<std::unique_ptr<Channel>> complete() override {
    if (!busy_) return make_error(Errc::kBadValue, peer_.address + ": already completed");
    attach_state(*map_).store(shm::kConnected, std::memory_order_release);
    std::unique_ptr<Channel> ch = std::make_unique<ShmChannel>(
        map_, layout_, 0, std::nullopt, opts_, peer_.address + " (peer)",
        [busy = std::move(busy_)] { busy->store(false); });
    return ch;
  }

 private:
  std::shared_ptr<Mapping> map_;
  Layout layout_;
  TransportOptions opts_;
  std::shared_ptr<std::atomic<bool>> busy_;
  PeerIdentity peer_;
};

class FileListener final : public Listener {
 public:
  FileListener(std::shared_ptr<Mapping> map, std::string path, Layout layout,
               TransportOptions opts)
      : map_(std::move(map)),
        path_(std::move(path)),
        layout_(layout),
        opts_(std::move(opts)),
        busy_(std::make_shared<std::atomic<bool>>(false)) {}
  // The file is ours; a channel still open keeps its own mapping.
  ~FileListener() override { ::unlink(path_.c_str()); }

  // Waits until the previous peer's Channel is destroyed, resets the region
  // and waits for a new peer to attach. The file's permissions decide who
  // may attach; complete() only answers it.
  Result<std::unique_ptr<PendingPeer>> accept_peer(std::chrono::milliseconds timeout) override {
    Deadline deadline(timeout);
    if (!poll_until([&] { return !busy_->load(); }, deadline, kListenPoll)) {
      return make_error(Errc::kTimeout, "previous peer of " + describe() + " still connected");
    }
    // A fresh region may already hold an attaching peer; one a peer used is
    // reset once (never again while a new peer may be attaching).
    if (needs_reset_) shm::init_region(map_->base(), layout_, shm::kListening);
    needs_reset_ = false;
    if (!poll_until([&] { return attach_state(*map_).load() == shm::kAttaching; }, deadline,
                    kListenPoll)) {
      return make_error(Errc::kTimeout, "no peer attached to " + describe());
    }
    busy_->store(true);
    needs_reset_ = true;
    std::unique_ptr<PendingPeer> pending =
        std::make_unique<FilePendingPeer>(map_, layout_, opts_, describe(), busy_);
    return pending;
  }

  std::string describe() const override { return "shm:file=" + path_; }

 private:
  std::shared_ptr<Mapping> map_;
  std::string path_;
  Layout layout_;
  TransportOptions opts_;
  std::shared_ptr<std::atomic<bool>> busy_;
  bool needs_reset_ = false;
};

}  // namespace

Result<std::unique_ptr<Channel>> shm_file_connect_channel(const Address& a,
                                                          const TransportOptions& opts) {
  Fd fd(::open(a.path.c_str(), O_RDWR | O_CLOEXEC));
  if (!fd.valid()) return errno_error(("open " + a.path).c_str());
  struct stat st;
  if (::fstat(fd.get(), &st) < 0) return errno_error("fstat");
  auto map = Mapping::map(fd.get(), static_cast<size_t>(st.st_size));
  if (!map) return map.error();
  auto layout = shm::read_layout((*map)->base(), (*map)->size());
  if (!layout) return layout.error();
  Deadline deadline(opts.io_timeout);
  auto& state = attach_state(**map);
  if (!poll_until([&] {
        uint32_t expected = shm::kListening;
        return state.compare_exchange_strong(expected, shm::kAttaching);
      }, deadline)) {
    return make_error(Errc::kTimeout, a.path + " is busy or has no listener");
  }
  if (!poll_until([&] { return state.load() == shm::kConnected; }, deadline)) {
    state.store(shm::kListening);
    return make_error(Errc::kTimeout, "no listener answered on " + a.path);
  }
  std::unique_ptr<Channel> ch = std::make_unique<ShmChannel>(
      std::move(*map), *layout, 1, std::nullopt, opts, "shm:file=" + a.path);
  return ch;
}

Result<std::unique_ptr<Listener>> shm_file_listen_channel(const Address& a,
                                                          const TransportOptions& opts) {
  auto layout = shm::make_layout(opts.ring_bytes, opts.heap_bytes);
  if (!layout) return layout.error();
  auto fd = open_ring_file(a.path);
  if (!fd) return fd.error();
  // QEMU exposes the file as a PCI BAR, whose size is a power of two.
  const size_t file_bytes = std::bit_ceil(layout->total_bytes);
  if (::ftruncate(fd->get(), static_cast<off_t>(file_bytes)) < 0) {
    return errno_error("ftruncate");
  }
  auto map = Mapping::map(fd->get(), layout->total_bytes);
  if (!map) return map.error();
  shm::init_region((*map)->base(), *layout, shm::kListening);
  std::unique_ptr<Listener> l =
      std::make_unique<FileListener>(std::move(*map), a.path, *layout, opts);
  return l;
}

}  // namespace wire::transport
