#include "shm_channel.h"

#include "wire/handoff.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>

namespace wire::transport::shm {
namespace {

// Back-off of a waiting side: spin while the peer is likely mid-write, then
// yield the core (2-core machines share it with the peer), then sleep.
constexpr auto kSpin = std::chrono::microseconds(20);
constexpr auto kYield = std::chrono::microseconds(50);
// After this many waits in a row that outlasted spinning, the peer is
// evidently not running alongside us: spin briefly, skip yielding, and sleep
// on the doorbell, which a loaded scheduler serves sooner than a yielder.
constexpr unsigned kLongWaitsToAdapt = 4;
constexpr auto kShortSpin = std::chrono::microseconds(2);
constexpr auto kFirstNap = std::chrono::microseconds(50);
constexpr auto kLongestNap = std::chrono::microseconds(1000);
// A polled peer (no doorbells) that stays quiet this long is idle: sleep
// longer, so an idle guest and host cost next to no CPU (each wake-up of an
// emulated guest is expensive), at the price of a few ms on the next message.
constexpr auto kIdleAfter = std::chrono::milliseconds(100);
constexpr auto kIdleNap = std::chrono::microseconds(5000);
constexpr auto kQuietNap = std::chrono::microseconds(30000);

std::chrono::microseconds longest_nap(Clock::time_point last_ready) {
  const auto quiet = Clock::now() - last_ready;
  return quiet > ShmChannel::kQuietAfter ? kQuietNap : quiet > kIdleAfter ? kIdleNap : kLongestNap;
}

static_assert(kOwnerDied == FUTEX_OWNER_DIED);

// The robust-futex ABI: when a thread ends, its kernel marks every word on
// the thread's robust list that still holds the thread's id. Here the list
// names one word, this side's owner word in the region, so the peer learns
// that our process died (exit without a close, a crash, SIGKILL) at once
// instead of after ring_silence. The list lives in this thread's own memory,
// so nothing the peer writes can steer the kernel. It replaces the list
// glibc registered for the thread, which therefore must never hold a robust
// mutex (the heartbeat thread holds none).
thread_local robust_list_head t_death_list;
thread_local robust_list t_death_entry;

void arm_death_notice(std::atomic<uint32_t>& owner) {
  t_death_entry.next = &t_death_list.list;
  t_death_list.list.next = &t_death_entry;
  t_death_list.futex_offset =
      reinterpret_cast<char*>(&owner) - reinterpret_cast<char*>(&t_death_entry);
  t_death_list.list_op_pending = nullptr;
  owner.store(static_cast<uint32_t>(::gettid()), std::memory_order_release);
  ::syscall(SYS_set_robust_list, &t_death_list, sizeof t_death_list);
}

// An empty list: the thread ends without the kernel touching the region.
void disarm_death_notice() {
  t_death_list.list.next = &t_death_list.list;
  ::syscall(SYS_set_robust_list, &t_death_list, sizeof t_death_list);
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

Result<std::shared_ptr<Mapping>> Mapping::map(int fd, size_t size) {
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return errno_error("mmap");
  Fd file(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
  if (!file.valid()) {
    ::munmap(p, size);
    return errno_error("dup shared region");
  }
  return std::shared_ptr<Mapping>(new Mapping(static_cast<std::byte*>(p), size, std::move(file)));
}

Mapping::~Mapping() { ::munmap(base_, size_); }

class ShmChannel::Access {
 public:
  explicit Access(ShmChannel& channel) : channel_(channel), entered_(channel.enter()) {}
  ~Access() {
    if (entered_) channel_.leave();
  }
  Access(const Access&) = delete;
  Access& operator=(const Access&) = delete;
  explicit operator bool() const { return entered_; }

 private:
  ShmChannel& channel_;
  bool entered_;
};

// enter() and close() each write one flag and then read the other's
// (sequentially consistent), so either the entering side sees the close or
// the closing side sees the entry and leaves the letting go to leave().
bool ShmChannel::enter() {
  in_flight_.fetch_add(1);
  if (!closed_.load()) return true;
  leave();
  return false;
}

void ShmChannel::leave() {
  if (in_flight_.fetch_sub(1) == 1 && closed_.load()) let_go();
}

void ShmChannel::let_go() {
  if (let_go_.exchange(true)) return;
  if (attached()) ctl_->side[side_].closed.store(session_, std::memory_order_release);
}

bool ShmChannel::attached() const {
  return ctl_->header.session.load(std::memory_order_acquire) == session_;
}

Status ShmChannel::session_over() const { return session_over(*ctl_, peer_, session_); }

Status ShmChannel::session_over(const RegionControl& ctl, int peer, uint32_t session) {
  if (ctl.header.session.load(std::memory_order_acquire) != session) {
    return make_error(Errc::kClosed, "the session ended: the listener reset the shared region");
  }
  if (ctl.side[peer].closed.load(std::memory_order_acquire) == session) {
    return make_error(Errc::kClosed, "peer closed the channel");
  }
  if (ctl.side[peer].owner.load(std::memory_order_acquire) & kOwnerDied) {
    return make_error(Errc::kClosed, "the peer's process ended");
  }
  return {};
}

ShmChannel::ShmChannel(std::shared_ptr<Mapping> map, const Layout& layout, int side,
                       std::optional<Doorbells> bells, const TransportOptions& opts,
                       std::string description, std::function<void()> on_close)
    : map_(std::move(map)),
      layout_(layout),
      side_(side),
      peer_(1 - side),
      ctl_(control(map_->base())),
      session_(ctl_->header.session.load(std::memory_order_acquire)),
      bells_(std::move(bells)),
      description_(std::move(description)),
      max_message_(opts.max_message_bytes),
      io_timeout_(opts.io_timeout),
      silence_(opts.ring_silence),
      patient_(opts.patient_waits.value_or(Patience::wanted())),
      on_close_(std::move(on_close)),
      producer_(&ctl_->dir[peer_], map_->base() + layout.ring_offset[peer_], layout.ring_bytes),
      heap_(&ctl_->dir[peer_], map_->base() + layout.heap_offset[peer_], layout.heap_bytes),
      consumer_(&ctl_->dir[side_], map_->base() + layout.ring_offset[side_], layout.ring_bytes),
      incoming_heap_(map_->base() + layout.heap_offset[side_], layout.heap_bytes) {
  if (!bells_) heartbeat_ = std::jthread([this](std::stop_token st) { heartbeat_loop(st); });
}

ShmChannel::~ShmChannel() {
  close();
  heartbeat_ = {};
  if (on_close_) on_close_();
}

// Beats every kBeatPeriod while messages flow; once both rings have been
// still for kQuietAfter, every kQuietBeatPeriod (announced to the peer, which
// then allows longer silence), so an idle emulated guest wakes rarely.
// Stops once the channel is closed or its session is over; while it runs,
// the kernel tells the peer if the process dies.
void ShmChannel::heartbeat_loop(std::stop_token stop) {
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock lock(m);
  uint64_t last_heads = 0;
  auto last_motion = Clock::now();
  std::atomic<uint32_t>& owner = ctl_->side[side_].owner;
  for (uint32_t beat = 1;; ++beat) {
    auto period = kBeatPeriod;
    {
      Access access(*this);
      const bool ours = access && attached();
      if (!ours || stop.stop_requested()) {
        if (ours) owner.store(0, std::memory_order_release);  // handed over, not dead
        disarm_death_notice();
        return;
      }
      if (beat == 1) arm_death_notice(owner);
      const uint64_t heads = ctl_->dir[0].producer.head.load(std::memory_order_relaxed) +
                             ctl_->dir[1].producer.head.load(std::memory_order_relaxed);
      if (heads != last_heads) {
        last_heads = heads;
        last_motion = Clock::now();
      }
      if (Clock::now() - last_motion > kQuietAfter) period = kQuietBeatPeriod;
      ctl_->side[side_].beat_period_ms.store(static_cast<uint32_t>(period.count()),
                                             std::memory_order_relaxed);
      ctl_->side[side_].heartbeat.store(beat_word(session_, beat), std::memory_order_release);
    }
    cv.wait_for(lock, stop, period, [] { return false; });
  }
}

void ShmChannel::ring(const Fd& bell) {
  uint64_t one = 1;
  (void)!::write(bell.get(), &one, sizeof one);
  kicks_.fetch_add(1, std::memory_order_relaxed);
  count_syscall();
}

// What is known for certain comes first: a close, the end of the session,
// the doorbell socket's hang-up. Only a polled peer is judged by silence.
Status ShmChannel::peer_gone(PeerWatch& watch) {
  WIRE_TRY(session_over());
  if (bells_) {
    pollfd p{bells_->socket.get(), POLLRDHUP, 0};
    count_syscall();
    if (::poll(&p, 1, 0) > 0) return make_error(Errc::kClosed, "peer hung up");
    return {};
  }
  return polled_peer_silent(watch);
}

Status ShmChannel::polled_peer_silent(PeerWatch& watch) {
  return polled_peer_silent(*ctl_, side_, session_, silence_, watch);
}

Status ShmChannel::polled_peer_silent(const RegionControl& ctl, int side, uint32_t session,
                                      std::chrono::milliseconds silence, PeerWatch& watch) {
  const int peer = 1 - side;
  const uint64_t beat = ctl.side[peer].heartbeat.load(std::memory_order_relaxed);
  // Any sign of life counts: a beat of this session (a stale peer's beats
  // carry another), or the peer moving either ring (a busy peer's heartbeat
  // thread may not be run for a while on a loaded host).
  const uint64_t signs = (beat_session(beat) == session ? beat : 0) +
                         ctl.dir[side].producer.head.load(std::memory_order_relaxed) +
                         ctl.dir[peer].consumer.tail.load(std::memory_order_relaxed);
  const auto now = Clock::now();
  const auto allowed = allowed_silence(ctl, peer, silence);
  // After a gap in our own looks (we were busy, or not run) the silence
  // cannot be judged from the last change we saw: a fresh window starts.
  const bool watching = now - watch.seen < allowed / 4;
  watch.seen = now;
  if (!watching || signs != watch.last_signs) {
    watch.last_signs = signs;
    watch.changed = now;
    return {};
  }
  if (now - watch.changed > allowed) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - watch.changed);
    return make_error(Errc::kClosed,
                      "no sign of life from the peer for " + std::to_string(ms.count()) + " ms");
  }
  return {};
}

// The configured silence, but at least 8 of the peer's announced beat
// periods; the peer's word is bounded, so it can only delay noticing its
// own death.
Clock::duration ShmChannel::allowed_silence(const RegionControl& ctl, int peer,
                                            std::chrono::milliseconds silence) {
  const auto announced = std::chrono::milliseconds(std::min<uint32_t>(
      ctl.side[peer].beat_period_ms.load(std::memory_order_relaxed), kQuietBeatPeriod.count()));
  return std::max<Clock::duration>(silence, 8 * announced);
}

// After a handoff, the exporter's own look at a polled peer, as the
// adopter's receive() would judge it.
std::function<bool()> ShmChannel::polled_peer_probe() const {
  struct Probe {
    std::shared_ptr<Mapping> map;
    int side = 0;
    uint32_t session = 0;
    std::chrono::milliseconds silence{};
    std::mutex mutex;
    PeerWatch watch;
  };
  auto probe = std::make_shared<Probe>();
  probe->map = map_;
  probe->side = side_;
  probe->session = session_;
  probe->silence = silence_;
  return [probe] {
    const RegionControl& ctl = *control(probe->map->base());
    std::lock_guard lock(probe->mutex);
    return !session_over(ctl, 1 - probe->side, probe->session) ||
           !polled_peer_silent(ctl, probe->side, probe->session, probe->silence, probe->watch);
  };
}

bool ShmChannel::sleep_once(const std::function<bool()>& ready, Role role,
                            const Deadline& deadline, std::chrono::microseconds nap) {
  if (!bells_) {
    auto left = std::chrono::milliseconds(deadline.poll_ms());
    count_syscall();
    std::this_thread::sleep_for(std::min<std::chrono::microseconds>(nap, left));
    return false;
  }
  // Announce first, then look again: a producer that published before seeing
  // the flag is caught by the second look; one that publishes after it rings.
  if (role == Role::kConsumer) {
    consumer_.announce_sleep();
  } else {
    producer_.announce_wait();
  }
  const bool was_ready = ready();
  if (!was_ready) {
    const Fd& bell = role == Role::kConsumer ? bells_->data[side_] : bells_->space[peer_];
    const int waker = role == Role::kConsumer ? waker_ : -1;
    pollfd fds[3] = {{bell.get(), POLLIN, 0}, {bells_->socket.get(), POLLRDHUP, 0}, {waker, POLLIN, 0}};
    int n = ::poll(fds, waker >= 0 ? 3 : 2, deadline.poll_ms());
    count_syscall();
    if (n > 0 && (fds[0].revents & POLLIN)) {
      count_syscall();
      uint64_t count;
      (void)!::read(bell.get(), &count, sizeof count);
    }
  }
  if (role == Role::kConsumer) {
    consumer_.end_sleep();
  } else {
    producer_.end_wait();
  }
  return was_ready;
}

Status ShmChannel::wait(const std::function<bool()>& ready, Role role, PeerWatch& watch,
                        const Deadline& deadline) {
  const auto start = Clock::now();
  Status st = wait_steps(ready, role, watch, deadline);
  if (st) {
    watch.last_ready = Clock::now();
    watch.typical_wait = Patience::smoothed(watch.typical_wait, watch.last_ready - start);
  }
  return st;
}

Status ShmChannel::wait_steps(const std::function<bool()>& ready, Role role, PeerWatch& watch,
                              const Deadline& deadline) {
  const bool adapted = watch.long_waits >= kLongWaitsToAdapt;
  const auto spin = adapted ? kShortSpin : kSpin;
  const auto yield = adapted ? kShortSpin : kYield;
  const auto look_on = patient_ ? Patience::look_on(watch.typical_wait) : Clock::duration::zero();  // within the deadline
  auto start = Clock::now();
  for (unsigned i = 0;; ++i) {
    if (ready()) {
      watch.long_waits = 0;
      return {};
    }
    if (closed_.load(std::memory_order_relaxed)) return make_error(Errc::kClosed, "channel closed");
    if (i % 64 == 0 && Clock::now() - start > spin) break;
    cpu_relax();
  }
  if (watch.long_waits < kLongWaitsToAdapt) ++watch.long_waits;
  for (auto spent = Clock::now() - start; spent < yield || (spent < look_on && !deadline.expired());
       spent = Clock::now() - start) {
    if (ready()) return {};
    if (closed_.load(std::memory_order_relaxed)) return make_error(Errc::kClosed, "channel closed");
    count_syscall();
    sched_yield();
  }
  sleeps_.fetch_add(1, std::memory_order_relaxed);
  for (auto nap = kFirstNap;; nap = std::min(nap * 2, longest_nap(watch.last_ready))) {
    if (ready()) return {};
    if (closed_.load(std::memory_order_relaxed)) return make_error(Errc::kClosed, "channel closed");
    if (auto gone = peer_gone(watch); !gone) {
      if (ready()) return {};  // it wrote before it went away
      return gone.error();
    }
    if (deadline.expired()) return make_error(Errc::kTimeout, "peer did not answer in time");
    if (role == Role::kConsumer && readable_now(waker_)) return make_error(Errc::kTimeout, "woken");
    if (sleep_once(ready, role, deadline, nap)) return {};
  }
}

Status ShmChannel::write_record(std::span<const std::byte> chunk, uint32_t flags,
                                const Deadline& deadline) {
  std::optional<Error> err;
  auto attempt = [&] {
    auto r = producer_.try_write(chunk, flags, heap_.mark());
    if (!r) err = r.error();
    return !r || *r;
  };
  if (!attempt()) WIRE_TRY(wait(attempt, Role::kProducer, tx_watch_, deadline));
  if (err) return *err;
  if (bells_ && producer_.consumer_sleeping()) ring(bells_->data[peer_]);
  return {};
}

Status ShmChannel::send(std::span<const std::byte> message) {
  if (tx_error_) return *tx_error_;
  Access access(*this);
  if (!access) return make_error(Errc::kClosed, "channel closed");
  if (auto over = session_over(); !over) {
    tx_error_ = over.error();
    return *tx_error_;
  }
  if (heap_.error()) {
    tx_error_ = *heap_.error();
    return *tx_error_;
  }
  if (message.size() > UINT32_MAX) return make_error(Errc::kLimit, "message above 4 GiB");
  Deadline deadline(io_timeout_);
  const size_t max = producer_.max_record();
  size_t off = 0;
  do {
    size_t n = std::min(max, message.size() - off);
    uint32_t flags = off + n < message.size() ? uint32_t{kRecordMore} : 0u;
    auto st = write_record(message.subspan(off, n), flags, deadline);
    if (!st) {
      // Before the first fragment the stream is intact and a retry may work.
      if (off == 0 && st.error().code == Errc::kTimeout) return st.error();
      tx_error_ = st.error();
      return st.error();
    }
    off += n;
  } while (off < message.size());
  return {};
}

// Once the peer has gone, everything it sent has been delivered: nothing
// is left to read, so the region is let go (a listener may reset it).
Error ShmChannel::fail_receive(Error e) {
  if (e.code == Errc::kTimeout) return e;
  rx_error_ = e;
  if (e.code == Errc::kClosed) close();
  return e;
}

Result<std::span<const std::byte>> ShmChannel::receive(std::chrono::milliseconds timeout) {
  Access access(*this);
  if (access) release_held();
  if (rx_error_) return *rx_error_;
  if (!access) return make_error(Errc::kClosed, "channel closed");
  // The rings of a later session are not ours to read.
  if (!attached()) return fail_receive(session_over().error());
  Deadline deadline(timeout);
  for (;;) {
    auto rec = consumer_.peek();
    if (!rec) {
      // Values that cannot be right after the session ended are stale, not hostile.
      if (!attached()) return fail_receive(session_over().error());
      return fail_receive(rec.error());
    }
    if (!*rec) {
      auto st = wait([this] { return !consumer_.empty(); }, Role::kConsumer, rx_watch_, deadline);
      if (!st) return fail_receive(st.error());
      continue;
    }
    const Record& r = **rec;
    const bool last = !(r.flags & kRecordMore);
    if (assembly_.size() + r.payload.size() > max_message_) {
      return fail_receive(make_error(
          Errc::kLimit, "message of at least " +
                            std::to_string(assembly_.size() + r.payload.size()) +
                            " bytes above limit " + std::to_string(max_message_)));
    }
    if (assembly_.empty() && last) {  // whole message: handed out in place
      held_ = Held::kRecord;
      held_record_ = r;
      return r.payload;
    }
    assembly_.insert(assembly_.end(), r.payload.begin(), r.payload.end());
    if (consumer_.consume(r.next_tail, std::nullopt) && bells_) ring(bells_->space[side_]);
    if (last) {
      held_ = Held::kAssembled;
      held_mark_ = r.heap_mark;
      return std::span<const std::byte>(assembly_);
    }
  }
}

void ShmChannel::release() {
  Access access(*this);
  if (access) release_held();
}

void ShmChannel::release_held() {
  if (held_ == Held::kRecord && attached()) {
    if (consumer_.consume(held_record_.next_tail, held_record_.heap_mark) && bells_) {
      ring(bells_->space[side_]);
    }
  } else if (held_ == Held::kAssembled && attached()) {
    ctl_->dir[side_].consumer.heap_tail.store(held_mark_, std::memory_order_release);
  }
  assembly_.clear();
  held_ = Held::kNone;
}

Result<ChannelHandoff> ShmChannel::export_handoff() {
  if (closed_.load()) return make_error(Errc::kClosed, "channel closed");
  let_go_.store(true);  // the adopting process holds the region from now on
  closed_.store(true);
  heartbeat_ = {};      // and beats
  ChannelHandoff h;
  h.kind = bells_ ? ChannelHandoff::Kind::kShm : ChannelHandoff::Kind::kShmFile;
  h.description = description_;
  h.region_bytes = map_->size();
  h.fds.push_back(::fcntl(map_->file(), F_DUPFD_CLOEXEC, 0));
  if (bells_) {
    for (Fd* fd : {&bells_->data[0], &bells_->space[0], &bells_->data[1], &bells_->space[1],
                   &bells_->socket}) {
      h.fds.push_back(fd->release());
    }
  }
  if (h.fds[0] < 0) return errno_error("dup shared region");
  h.peer_gone = bells_ ? hang_up_probe(h.fds.back()) : polled_peer_probe();
  h.on_release = std::exchange(on_close_, nullptr);
  return h;
}

void ShmChannel::close() {
  if (closed_.exchange(true)) return;
  if (in_flight_.load() == 0) let_go();
  if (bells_) {
    // Wake a peer asleep on either ring; the socket's hang-up follows.
    ring(bells_->data[peer_]);
    ring(bells_->space[side_]);
    ::shutdown(bells_->socket.get(), SHUT_RDWR);
  }
}

}  // namespace wire::transport::shm
