// shm:file=PATH — a shared region in a plain file, for peers that can only
// poll it: a QEMU guest sees such a file (e.g. under /dev/shm) as the BAR of
// an `ivshmem-plain` device, which has no doorbell. The listener creates the
// file and serves one peer at a time, one session after another; liveness
// comes from heartbeats, and the end of a session from closed flags.
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
// A peer whose session ended and whose heartbeat has stood still this long
// is taken to have let go of the region (a live one beats at least every
// ShmChannel::kQuietBeatPeriod and lets go as soon as it has read what it
// was sent).
constexpr auto kLetGoQuiet = std::chrono::milliseconds(500);

shm::RegionControl& region(Mapping& map) { return *shm::control(map.base()); }

// Polls `done` until it holds or the deadline passes.
template <typename F>
bool poll_until(F done, const Deadline& deadline, std::chrono::milliseconds period = kAttachPoll) {
  while (!done()) {
    if (deadline.expired()) return false;
    std::this_thread::sleep_for(period);
  }
  return true;
}

// Shared by a listener and the peers it accepted: whether a peer holds the
// region (the listener waits), and whether a session ran on it since the
// last reset (the listener reclaims it before the next).
struct RegionUse {
  std::atomic<bool> busy{false};
  std::atomic<bool> used{false};
};

// A peer that attached; until complete() answers it, the region stays
// busy, and dropping it unanswered frees the listener for the next one.
class FilePendingPeer final : public PendingPeer {
 public:
  FilePendingPeer(std::shared_ptr<Mapping> map, Layout layout, TransportOptions opts,
                  std::string description, std::shared_ptr<RegionUse> use)
      : map_(std::move(map)), layout_(layout), opts_(std::move(opts)), use_(std::move(use)) {
    peer_.address = std::move(description);
  }
  ~FilePendingPeer() override {
    if (use_) use_->busy.store(false);
  }

  const PeerIdentity& peer() const override { return peer_; }

  // Answers only a peer still attaching: one that gave up meanwhile has
  // moved the state back to listening.
  Result<std::unique_ptr<Channel>> complete() override {
    if (!use_) return make_error(Errc::kBadValue, peer_.address + ": already completed");
    uint32_t attaching = shm::kAttaching;
    if (!region(*map_).header.state.compare_exchange_strong(attaching, shm::kConnected)) {
      return make_error(Errc::kClosed, peer_.address + ": the peer gave up attaching");
    }
    use_->used.store(true);
    std::unique_ptr<Channel> ch = std::make_unique<ShmChannel>(
        map_, layout_, 0, std::nullopt, opts_, peer_.address + " (peer)",
        [use = std::move(use_)] { use->busy.store(false); });
    return ch;
  }

 private:
  std::shared_ptr<Mapping> map_;
  Layout layout_;
  TransportOptions opts_;
  std::shared_ptr<RegionUse> use_;
  PeerIdentity peer_;
};

// After a session, the region is reset for the next peer only once the
// last one has let go of it, so that nothing it still reads or writes lands
// in the next session: it has set its closed flag, or its process died (its
// kernel marked the owner word), or its heartbeat stood
// still for kLetGoQuiet (dead, or not run; on waking it finds the session
// moved on and stops), or ring_silence passed (it no longer reads).
class Reclaim {
 public:
  void start(shm::RegionControl& c) {
    active_ = true;
    session_ = c.header.session.load(std::memory_order_acquire);
    started_ = beat_changed_ = Clock::now();
    last_beat_ = c.side[1].heartbeat.load(std::memory_order_acquire);
    // The host side has ended, however it ended (a renderer that crashed
    // never said so): the peer hears it at its next look.
    c.side[0].closed.store(session_, std::memory_order_release);
  }
  bool active() const { return active_; }

  bool peer_let_go(shm::RegionControl& c, std::chrono::milliseconds silence) {
    if (c.side[1].closed.load(std::memory_order_acquire) == session_) return true;
    if (c.side[1].owner.load(std::memory_order_acquire) & shm::kOwnerDied) return true;
    const uint64_t beat = c.side[1].heartbeat.load(std::memory_order_acquire);
    const auto now = Clock::now();
    if (beat != last_beat_) {
      last_beat_ = beat;
      beat_changed_ = now;
    }
    return now - beat_changed_ >= kLetGoQuiet || now - started_ >= silence;
  }
  void done() { active_ = false; }

 private:
  bool active_ = false;
  uint32_t session_ = 0;
  uint64_t last_beat_ = 0;
  Clock::time_point started_;
  Clock::time_point beat_changed_;
};

class FileListener final : public Listener {
 public:
  FileListener(std::shared_ptr<Mapping> map, std::string path, Layout layout,
               TransportOptions opts)
      : map_(std::move(map)),
        path_(std::move(path)),
        layout_(layout),
        opts_(std::move(opts)),
        use_(std::make_shared<RegionUse>()) {}
  // The file is ours; a channel still open keeps its own mapping.
  ~FileListener() override { ::unlink(path_.c_str()); }

  // Waits until the previous peer's Channel is destroyed and that peer has
  // let go of the region, resets the region and waits for a new peer to
  // attach. The file's permissions decide who may attach; complete() only
  // answers it. Each step resumes where a call that timed out left it.
  Result<std::unique_ptr<PendingPeer>> accept_peer(std::chrono::milliseconds timeout) override {
    Deadline deadline(timeout);
    if (!poll_until([&] { return !use_->busy.load(); }, deadline, kListenPoll)) {
      return make_error(Errc::kTimeout, "previous peer of " + describe() + " still connected");
    }
    shm::RegionControl& c = region(*map_);
    if (use_->used.exchange(false)) reclaim_.start(c);
    if (reclaim_.active()) {
      if (!poll_until([&] { return reclaim_.peer_let_go(c, opts_.ring_silence); }, deadline,
                      kListenPoll)) {
        return make_error(Errc::kTimeout, "previous peer of " + describe() + " still attached");
      }
      shm::reset_region(map_->base());
      shm::forget_contents(map_->base(), layout_);
      reclaim_.done();
    }
    if (!poll_until([&] { return c.header.state.load() == shm::kAttaching; }, deadline,
                    kListenPoll)) {
      return make_error(Errc::kTimeout, "no peer attached to " + describe());
    }
    use_->busy.store(true);
    std::unique_ptr<PendingPeer> pending =
        std::make_unique<FilePendingPeer>(map_, layout_, opts_, describe(), use_);
    return pending;
  }

  std::string describe() const override { return "shm:file=" + path_; }

 private:
  std::shared_ptr<Mapping> map_;
  std::string path_;
  Layout layout_;
  TransportOptions opts_;
  std::shared_ptr<RegionUse> use_;
  Reclaim reclaim_;
};

// Moves the attach state from listening to attaching, and takes it back if
// the listener does not answer in time (unless it answered meanwhile).
// Returns the session attached to.
Result<uint32_t> attach(shm::RegionControl& c, const std::string& path, const Deadline& deadline) {
  auto& state = c.header.state;
  if (!poll_until([&] {
        uint32_t expected = shm::kListening;
        return state.compare_exchange_strong(expected, shm::kAttaching);
      }, deadline)) {
    return make_error(Errc::kTimeout, path + " is busy or has no listener");
  }
  const uint32_t session = c.header.session.load(std::memory_order_acquire);
  if (!poll_until([&] { return state.load() == shm::kConnected; }, deadline)) {
    uint32_t expected = shm::kAttaching;
    if (!state.compare_exchange_strong(expected, shm::kListening) && expected == shm::kConnected) {
      return session;
    }
    return make_error(Errc::kTimeout, "no listener answered on " + path);
  }
  return session;
}

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
  shm::RegionControl& c = region(**map);
  auto session = attach(c, a.path, Deadline(opts.io_timeout));
  if (!session) return session.error();
  std::unique_ptr<Channel> ch = std::make_unique<ShmChannel>(
      std::move(*map), *layout, 1, std::nullopt, opts, a.describe());
  // The listener may have ended the session before the channel took its
  // number; then this channel would belong to the next one.
  if (c.header.session.load(std::memory_order_acquire) != *session) {
    return make_error(Errc::kClosed, "the listener of " + a.path + " ended the session at once");
  }
  return ch;
}

Result<std::unique_ptr<Listener>> shm_file_listen_channel(const Address& a,
                                                          const TransportOptions& opts) {
  auto layout = shm::make_layout(opts.ring_bytes, opts.heap_bytes, opts.area_bytes);
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
