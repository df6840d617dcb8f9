// A polled ring file serves one guest after another: the races in attaching
// to it, in reclaiming it after a session, and in judging its peer dead.
// Each test drives one of them in a fixed order.
#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <thread>

#include "peer_process.h"
#include "shm_ring.h"
#include "wire/address.h"
#include "wire/handoff.h"
#include "wire/transport.h"

namespace wire {
namespace {

using namespace std::chrono_literals;
using namespace wire::testing;  // the peer-process helpers every transport test uses

std::string ring_address() {
  static int counter = 0;
  return "shm:file=" + ::testing::TempDir() + "conduit-ringfile-" + std::to_string(getpid()) + "-" +
         std::to_string(counter++);
}

TransportOptions small_rings() {
  TransportOptions opts;
  opts.ring_bytes = 1u << 16;
  opts.heap_bytes = 0;
  return opts;
}

struct Attached {
  std::unique_ptr<Channel> host;
  std::unique_ptr<Channel> guest;
};

Attached attach(Listener& listener, const std::string& address, const TransportOptions& opts) {
  Attached a;
  std::thread guest([&] {
    auto c = wire::connect(address, opts);
    if (c) a.guest = std::move(*c);
  });
  auto host = listener.accept(5s);
  guest.join();
  if (host) a.host = std::move(*host);
  return a;
}

Status send_byte(Channel& ch, uint8_t value) {
  const std::byte b[1] = {std::byte{value}};
  return ch.send(b);
}

// The byte of the next message, or the error's description.
std::string next_byte(Channel& ch, std::chrono::milliseconds timeout = 5s) {
  auto m = ch.receive(timeout);
  if (!m) return m.error().describe();
  if (m->size() != 1) return "a message of " + std::to_string(m->size()) + " bytes";
  return std::to_string(static_cast<int>((*m)[0]));
}

// What a receive gave when it should have failed: the error's kind first
// ("closed: peer closed the channel"), so tests compare its start.
std::string failure(const Result<std::span<const std::byte>>& r) {
  return r ? "a message" : r.error().describe();
}

bool closed(const Result<std::span<const std::byte>>& r) {
  return failure(r).starts_with(errc_name(Errc::kClosed));
}

// Passes when `r` is the error `code`.
::testing::AssertionResult failed_with(const Result<std::span<const std::byte>>& r, Errc code) {
  if (r) return ::testing::AssertionFailure() << "a message arrived";
  if (r.error().code != code) return ::testing::AssertionFailure() << r.error().describe();
  return ::testing::AssertionSuccess();
}

// Each test listens on a ring file of its own.
class RingFile : public ::testing::Test {
 protected:
  void listen_on_ring(const TransportOptions& opts = small_rings()) {
    opts_ = opts;
    address_ = ring_address();
    auto listener = wire::listen(address_, opts_);
    ASSERT_TRUE(listener) << listener.error().describe();
    listener_ = std::move(*listener);
  }

  Attached attach_guest() { return attach(*listener_, address_, opts_); }

  // The host ends `a`'s session; its guest hears that it closed.
  void end_session(Attached& a) {
    a.host.reset();
    auto end = a.guest->receive(5s);
    ASSERT_TRUE(closed(end)) << failure(end);
  }

  // The ring serves the next guest: a byte it sends reaches the host.
  void expect_next_guest_served(uint8_t byte) {
    auto b = attach_guest();
    ASSERT_TRUE(b.host && b.guest);
    ASSERT_TRUE(send_byte(*b.guest, byte));
    EXPECT_EQ(next_byte(*b.host), std::to_string(byte));
  }

  TransportOptions opts_;
  std::string address_;
  std::unique_ptr<Listener> listener_;
};

// The host ends a session and goes back to listening while its guest still
// holds the ring: the guest hears that the session ended, not that the
// ring went corrupt (the listener used to reset the region under it, so
// the guest read a producer head of 0 behind its own tail).
TEST_F(RingFile, GuestOfAnEndedSessionSeesItClosedNotCorrupt) {
  ASSERT_NO_FATAL_FAILURE(listen_on_ring());
  auto a = attach_guest();
  ASSERT_TRUE(a.host && a.guest);
  ASSERT_TRUE(send_byte(*a.host, 1));
  ASSERT_EQ(next_byte(*a.guest), "1");
  ASSERT_TRUE(send_byte(*a.guest, 2));
  ASSERT_EQ(next_byte(*a.host), "2");

  a.host.reset();
  EXPECT_FALSE(listener_->accept_peer(300ms));  // the host listens for its next guest
  auto r = a.guest->receive(5s);
  ASSERT_TRUE(failed_with(r, Errc::kClosed));
}

// A ring file serves one guest after another: the next one finds zeros in
// the rings, heaps and memory area, not what the last one left there.
TEST_F(RingFile, TheNextGuestReadsNothingTheLastOneLeft) {
  auto opts = small_rings();
  opts.area_bytes = 1u << 16;
  ASSERT_NO_FATAL_FAILURE(listen_on_ring(opts));
  {
    auto a = attach_guest();
    ASSERT_TRUE(a.host && a.guest);
    std::span<std::byte> area = a.guest->shared_area();
    ASSERT_EQ(area.size(), opts.area_bytes);
    std::memset(area.data(), 0xAB, area.size());
    ASSERT_TRUE(send_byte(*a.guest, 7));
    ASSERT_EQ(next_byte(*a.host), "7");
  }
  auto b = attach_guest();
  ASSERT_TRUE(b.host && b.guest);
  std::span<std::byte> area = b.guest->shared_area();
  EXPECT_TRUE(std::all_of(area.begin(), area.end(), [](std::byte x) { return x == std::byte{0}; }));
  ASSERT_TRUE(send_byte(*b.guest, 8));
  EXPECT_EQ(next_byte(*b.host), "8");
}

// What the host sent before its session ended reaches the guest, even when
// the listener is already waiting for the next one; then the ring serves
// that next guest.
TEST_F(RingFile, MessagesTheHostSentBeforeItEndedStillArrive) {
  ASSERT_NO_FATAL_FAILURE(listen_on_ring());
  auto a = attach_guest();
  ASSERT_TRUE(a.host && a.guest);
  for (uint8_t i = 1; i <= 3; ++i) ASSERT_TRUE(send_byte(*a.host, i));
  a.host.reset();
  EXPECT_FALSE(listener_->accept_peer(300ms));

  EXPECT_EQ(next_byte(*a.guest), "1");
  EXPECT_EQ(next_byte(*a.guest), "2");
  EXPECT_EQ(next_byte(*a.guest), "3");
  {
    auto end = a.guest->receive(5s);
    EXPECT_TRUE(closed(end)) << failure(end);
  }

  expect_next_guest_served(4);
}

// A guest that stops waiting for the host's answer takes its attach back;
// the host, answering late, must not leave the ring marked as connected to
// nobody (the next guest could then never attach).
TEST_F(RingFile, AGuestThatGaveUpAttachingDoesNotWedgeTheRing) {
  ASSERT_NO_FATAL_FAILURE(listen_on_ring());
  TransportOptions impatient = opts_;
  impatient.io_timeout = 300ms;
  bool gave_up = false;
  std::thread guest([&] { gave_up = !wire::connect(address_, impatient); });
  auto pending = listener_->accept_peer(5s);
  guest.join();
  ASSERT_TRUE(pending) << pending.error().describe();
  ASSERT_TRUE(gave_up);

  EXPECT_FALSE((*pending)->complete()) << "answered a guest that had left";
  pending->reset();

  expect_next_guest_served(5);
}

// A guest library keeps a lost connection's channel until the program lets
// go of it; destroying it later, while the ring serves the next session,
// must not close that session.
TEST_F(RingFile, AStaleGuestClosingLaterDoesNotEndTheNextSession) {
  ASSERT_NO_FATAL_FAILURE(listen_on_ring());
  auto a = attach_guest();
  ASSERT_TRUE(a.host && a.guest);
  ASSERT_NO_FATAL_FAILURE(end_session(a));

  auto b = attach_guest();
  ASSERT_TRUE(b.host && b.guest);
  ASSERT_TRUE(send_byte(*b.guest, 7));
  ASSERT_EQ(next_byte(*b.host), "7");
  a.guest.reset();
  auto quiet = b.host->receive(300ms);
  ASSERT_TRUE(failed_with(quiet, Errc::kTimeout));
  ASSERT_TRUE(send_byte(*b.guest, 8));
  EXPECT_EQ(next_byte(*b.host), "8");
}

// Beats from a stale guest's channel do not count for the guest that
// attached after it: once that one is killed, the host notices.
TEST_F(RingFile, AStaleGuestsHeartbeatDoesNotKeepADeadOneAlive) {
  auto opts = small_rings();
  opts.ring_silence = 500ms;
  ASSERT_NO_FATAL_FAILURE(listen_on_ring(opts));
  auto a = attach_guest();
  ASSERT_TRUE(a.host && a.guest);
  ASSERT_NO_FATAL_FAILURE(end_session(a));

  pid_t pid = fork_peer([&] {
    auto ch = wire::connect(address_, opts);
    if (!ch || !send_byte(**ch, 9)) return 2;
    std::this_thread::sleep_for(60s);  // until killed
    return 0;
  });
  auto host = listener_->accept(5s);
  ASSERT_TRUE(host) << host.error().describe();
  ASSERT_EQ(next_byte(**host), "9");
  ::kill(pid, SIGKILL);
  EXPECT_EQ(wait_peer(pid), -SIGKILL);
  const int64_t killed = monotonic_us();
  auto gone = (*host)->receive(5s);
  ASSERT_TRUE(failed_with(gone, Errc::kClosed));
  EXPECT_LT(monotonic_us() - killed, 3'000'000);
}

// A guest whose process gets no CPU for longer than the old fixed window
// (1 s) but less than the configured silence keeps its session: on a loaded
// host an emulated guest's virtual CPUs can stand still that long.
TEST_F(RingFile, AStalledGuestWithinTheSilenceKeepsItsSession) {
  auto opts = small_rings();
  opts.ring_silence = 4s;
  ASSERT_NO_FATAL_FAILURE(listen_on_ring(opts));
  pid_t pid = fork_peer([&] {
    auto ch = wire::connect(address_, opts);
    if (!ch || !send_byte(**ch, 1)) return 2;
    if (next_byte(**ch, 20s) != "2") return 3;
    return send_byte(**ch, 3) ? 0 : 4;
  });
  auto host = listener_->accept(5s);
  ASSERT_TRUE(host) << host.error().describe();
  ASSERT_EQ(next_byte(**host), "1");
  ::kill(pid, SIGSTOP);
  auto stalled = (*host)->receive(1500ms);
  ::kill(pid, SIGCONT);
  ASSERT_TRUE(failed_with(stalled, Errc::kTimeout));
  ASSERT_TRUE(send_byte(**host, 2));
  EXPECT_EQ(next_byte(**host), "3");
  EXPECT_EQ(wait_peer(pid), 0);
}

// The renderer that adopted a session ends without closing it (it
// crashed): the host knows, and the guest hears it at once rather than
// after the long silence.
TEST_F(RingFile, TheGuestHearsAtOnceThatTheHostsRendererEnded) {
  ASSERT_NO_FATAL_FAILURE(listen_on_ring());
  auto a = attach_guest();
  ASSERT_TRUE(a.host && a.guest);
  auto handoff = a.host->export_handoff();
  ASSERT_TRUE(handoff) << handoff.error().describe();
  a.host.reset();
  handoff->on_release();  // what the host does once the renderer has gone

  std::atomic<bool> stop{false};
  std::thread accepting([&] {
    while (!stop) (void)listener_->accept_peer(100ms);
  });
  const int64_t start = monotonic_us();
  auto r = a.guest->receive(5s);
  const int64_t waited_ms = (monotonic_us() - start) / 1000;
  stop = true;
  accepting.join();
  ASSERT_TRUE(failed_with(r, Errc::kClosed));
  EXPECT_LT(waited_ms, 2000);
}

// A side's owner word (0: host, 1: guest) as seen in the ring file.
class OwnerWord {
 public:
  OwnerWord(const std::string& address, int side) : side_(side) {
    const std::string path = wire::Address::parse(address)->path;
    int fd = ::open(path.c_str(), O_RDWR);
    struct stat st;
    ::fstat(fd, &st);
    size_ = static_cast<size_t>(st.st_size);
    base_ = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
  }
  ~OwnerWord() { ::munmap(base_, size_); }
  uint32_t load() const {
    return transport::shm::control(static_cast<std::byte*>(base_))->side[side_].owner.load();
  }

 private:
  int side_;
  void* base_;
  size_t size_;
};

// A guest program that exits without closing its channel (a guest library
// keeps it open for the program's exit handlers) or is killed: its kernel
// marks the owner word, so the host ends the session at once, not after
// the long silence, and the ring serves the next guest.
TEST_F(RingFile, AGuestProcessThatEndsIsNoticedAtOnce) {
  ASSERT_NO_FATAL_FAILURE(listen_on_ring());  // the default ring_silence, 10 s
  OwnerWord guest_owner(address_, 1);
  for (const bool killed : {false, true}) {
    pid_t pid = fork_peer([&] {
      auto ch = wire::connect(address_, opts_);
      if (!ch || !send_byte(**ch, 1) || next_byte(**ch) != "2") return 2;
      if (killed) ::raise(SIGKILL);
      (void)ch->release();  // never closed
      return 0;
    });
    auto host = listener_->accept(5s);
    ASSERT_TRUE(host) << host.error().describe();
    ASSERT_EQ(next_byte(**host), "1");
    while (guest_owner.load() == 0) std::this_thread::sleep_for(1ms);  // its heartbeat runs
    ASSERT_TRUE(send_byte(**host, 2));
    EXPECT_EQ(wait_peer(pid), killed ? -SIGKILL : 0);
    const int64_t ended = monotonic_us();
    auto gone = (*host)->receive(5s);
    ASSERT_TRUE(failed_with(gone, Errc::kClosed));
    EXPECT_LT(monotonic_us() - ended, 1'000'000) << (killed ? "killed" : "exited");
  }
}

// The renderer process that adopted a session dies: the guest hears it from
// the owner word the renderer's heartbeat armed, before the host releases
// the handoff; once it does, the ring serves the next guest.
TEST_F(RingFile, TheGuestHearsAtOnceThatAnAdoptingRendererDied) {
  ASSERT_NO_FATAL_FAILURE(listen_on_ring());  // the default ring_silence, 10 s
  auto a = attach_guest();
  ASSERT_TRUE(a.host && a.guest);
  auto handoff = a.host->export_handoff();
  ASSERT_TRUE(handoff) << handoff.error().describe();
  a.host.reset();
  OwnerWord host_owner(address_, 0);
  const uint32_t supervisor_word = host_owner.load();
  pid_t renderer = fork_peer([&] {
    auto ch = adopt_channel(std::move(*handoff), opts_);
    if (!ch || !send_byte(**ch, 1) || next_byte(**ch) != "2") return 2;
    ::raise(SIGKILL);
    return 0;
  });
  ASSERT_EQ(next_byte(*a.guest), "1");
  for (int ms = 0; ms < 5000 && host_owner.load() == supervisor_word; ++ms) {
    std::this_thread::sleep_for(1ms);  // until the renderer's heartbeat holds the word
  }
  ASSERT_TRUE(send_byte(*a.guest, 2));
  EXPECT_EQ(wait_peer(renderer), -SIGKILL);
  const int64_t ended = monotonic_us();
  auto gone = a.guest->receive(5s);
  ASSERT_TRUE(failed_with(gone, Errc::kClosed));
  EXPECT_LT(monotonic_us() - ended, 1'000'000);

  handoff->on_release();  // what the host does once the renderer has gone
  expect_next_guest_served(3);
}

TEST_F(RingFile, GuestsReadTheSilenceFromTheEnvironment) {
  EXPECT_EQ(options_from_environment()->ring_silence, TransportOptions{}.ring_silence);
  ::setenv("CONDUIT_RING_SILENCE", "2.5", 1);
  auto o = options_from_environment();
  ASSERT_TRUE(o) << o.error().describe();
  EXPECT_EQ(o->ring_silence, 2500ms);
  for (const char* bad : {"soon", "-1", "0", "10s"}) {
    ::setenv("CONDUIT_RING_SILENCE", bad, 1);
    auto refused = options_from_environment();
    ASSERT_FALSE(refused) << bad;
    EXPECT_NE(refused.error().detail.find("CONDUIT_RING_SILENCE"), std::string::npos);
  }
  ::unsetenv("CONDUIT_RING_SILENCE");
}

// A peer reads the header to attach while the listener resets the region
// for its next session: the header reads valid throughout (a reset used to
// clear the magic number first, so such a peer was told the file was no
// ring at all).
TEST_F(RingFile, ResetKeepsTheHeaderReadable) {
  namespace shm = transport::shm;
  auto layout = shm::make_layout(1u << 16, 0);
  ASSERT_TRUE(layout);
  std::vector<std::byte> bytes(layout->total_bytes + shm::kLine);
  std::byte* base = bytes.data() + (shm::kLine - reinterpret_cast<uintptr_t>(bytes.data()) % shm::kLine);
  shm::init_region(base, *layout, shm::kListening);
  std::atomic<bool> stop{false};
  std::thread listener([&] {
    while (!stop) shm::reset_region(base);
  });
  size_t reads = 0, bad = 0;
  std::string first;
  const int64_t end = monotonic_us() + 300'000;
  while (monotonic_us() < end) {
    for (int i = 0; i < 1000; ++i, ++reads) {
      auto l = shm::read_layout(base, layout->total_bytes);
      if (!l && bad++ == 0) first = l.error().describe();
    }
  }
  stop = true;
  listener.join();
  EXPECT_EQ(bad, 0u) << "of " << reads << " reads; the first: " << first;
}

}  // namespace
}  // namespace wire
