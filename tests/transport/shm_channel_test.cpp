// The shm transport end to end, and the blob heaps unix sockets share with
// it: heap use across processes, and a peer that scribbles over the shared
// control block.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <random>
#include <thread>

#include "peer_process.h"
#include "shm_channel.h"
#include "shm_ring.h"
#include "socket_stream.h"
#include "wire/reader.h"
#include "wire/transport.h"
#include "wire/writer.h"

namespace wire {
namespace {

using namespace std::chrono_literals;
using namespace wire::testing;  // the peer-process helpers every transport test uses

std::string temp_name(const char* tag) {
  static int counter = 0;
  return ::testing::TempDir() + "conduit-" + tag + "-" + std::to_string(getpid()) + "-" +
         std::to_string(counter++);
}

constexpr uint32_t kBlobOp = kFirstGlOpcode + 1;

// The client fills the heap until it refuses, in every round, so the heap is
// exhausted, reused from the start and wrapped; the listener checks every
// byte through wire::Reader, whichever way (heap or inline) it travelled.
TEST(ShmChannel, BlobHeapExhaustionAndReuseAcrossProcesses) {
  for (const char* scheme : {"shm:", "shm:file=", "unix:"}) {
    TransportOptions opts;
    opts.ring_bytes = 1u << 20;
    opts.heap_bytes = 256 * 1024;
    std::string address = scheme + temp_name("heap");
    auto listener = wire::listen(address, opts);
    ASSERT_TRUE(listener) << listener.error().describe();
    constexpr int kRounds = 12;
    pid_t pid = fork_peer([&] {
      auto ch = wire::connect(address, opts);
      if (!ch) return 2;
      BlobSink* heap = (*ch)->outgoing_heap();
      if (!heap) return 3;
      std::mt19937 rng(5);
      std::vector<std::byte> blob;
      uint64_t seed = 0;
      for (int round = 0; round < kRounds; ++round) {
        Writer w;
        w.set_blob_sink(heap);
        // Heap-sized blobs until the heap is full; the last goes inline.
        for (int i = 0; i < 64; ++i, ++seed) {
          blob.resize(heap->threshold() + rng() % (60 * 1024));
          fill_pattern(blob, seed);
          size_t c = w.begin(kBlobOp);
          w.put<uint64_t>(seed);
          w.put_data(blob.data(), blob.size());
          w.end(c);
          uint32_t kind;
          std::memcpy(&kind, w.bytes().data() + c + sizeof(CommandHeader) + 8, 4);
          if (kind == static_cast<uint32_t>(DataKind::kInline)) break;
        }
        if (!(*ch)->send(w.bytes())) return 4;
        auto ack = (*ch)->receive(10s);
        if (!ack || ack->size() != 4) return 5;
      }
      return 0;
    });
    auto ch = (*listener)->accept(10s);
    ASSERT_TRUE(ch) << ch.error().describe();
    size_t heap_bytes = 0, inline_blobs = 0;
    for (int round = 0; round < kRounds; ++round) {
      auto msg = (*ch)->receive(10s);
      ASSERT_TRUE(msg) << msg.error().describe();
      CommandIterator it(*msg);
      while (!it.done()) {
        auto cmd = it.next();
        ASSERT_TRUE(cmd) << cmd.error().describe();
        Reader r(cmd->payload, cmd->offset, (*ch)->incoming_heap());
        auto seed = r.get<uint64_t>();
        auto data = r.get_data();
        ASSERT_TRUE(seed && data) << (data ? "" : data.error().describe());
        ASSERT_TRUE(matches_pattern(data->bytes, *seed)) << "blob " << *seed;
        if (data->kind == DataKind::kHeap) {
          heap_bytes += data->bytes.size();
        } else {
          ++inline_blobs;
        }
      }
      (*ch)->release();  // frees the heap space the message referenced
      uint32_t ack = 1;
      ASSERT_TRUE((*ch)->send({reinterpret_cast<std::byte*>(&ack), 4}));
    }
    EXPECT_EQ(inline_blobs, size_t{kRounds});  // the heap ran out every round
    EXPECT_GT(heap_bytes, 8 * opts.heap_bytes);  // so it was reused
    EXPECT_EQ(wait_peer(pid), 0) << scheme;
  }
}

// Maps a file region the way a hostile guest would and writes nonsense.
struct Scribbler {
  explicit Scribbler(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDWR);
    struct stat st;
    ::fstat(fd, &st);
    size = static_cast<size_t>(st.st_size);
    base = static_cast<std::byte*>(::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
    ::close(fd);
  }
  ~Scribbler() { ::munmap(base, size); }
  transport::shm::RegionControl* ctl() { return transport::shm::control(base); }
  std::byte* base;
  size_t size;
};

TEST(ShmChannel, HostileRingStateGivesCleanErrors) {
  TransportOptions opts;
  opts.ring_bytes = 64 * 1024;
  opts.heap_bytes = 64 * 1024;
  std::string path = temp_name("hostile");
  auto listener = wire::listen("shm:file=" + path, opts);
  ASSERT_TRUE(listener) << listener.error().describe();
  auto layout = transport::shm::make_layout(opts.ring_bytes, opts.heap_bytes);

  // Each case: what the "guest" writes, then what the host must report.
  struct Case {
    const char* name;
    std::function<void(Scribbler&)> scribble;
    bool on_receive;  // else the host's send fails
  };
  const Case cases[] = {
      {"head far beyond tail",
       [](Scribbler& s) { s.ctl()->dir[0].producer.head.store(uint64_t{1} << 40); }, true},
      {"record larger than the ring",
       [&](Scribbler& s) {
         transport::shm::RecordHeader h{1u << 30, 0, 0};
         std::memcpy(s.base + layout->ring_offset[0], &h, sizeof h);
         s.ctl()->dir[0].producer.head.store(64);
       },
       true},
      {"tail running ahead of head",
       [](Scribbler& s) { s.ctl()->dir[1].consumer.tail.store(~uint64_t{0} - 5); }, false},
  };
  for (const Case& k : cases) {
    std::unique_ptr<Channel> guest;
    std::thread t([&] {
      auto c = wire::connect("shm:file=" + path, opts);
      if (c) guest = std::move(*c);
    });
    auto host = (*listener)->accept(5s);
    t.join();
    ASSERT_TRUE(host && guest) << k.name;
    Scribbler s(path);
    k.scribble(s);
    if (k.on_receive) {
      auto m = (*host)->receive(1s);
      ASSERT_FALSE(m) << k.name;
      EXPECT_EQ(m.error().code, Errc::kBadValue) << k.name << ": " << m.error().describe();
    } else {
      // Fill the ring so the host must look at the (garbage) tail.
      std::vector<std::byte> msg(20000);
      Status st;
      for (int i = 0; i < 8 && st; ++i) st = (*host)->send(msg);
      ASSERT_FALSE(st) << k.name;
      EXPECT_EQ(st.error().code, Errc::kBadValue) << k.name << ": " << st.error().describe();
    }
    guest.reset();
    host->reset();
  }
}

// A guest on a unix socket maps the heaps' file the host made, control lines
// included: a heap tail it reports beyond what the host handed out breaks
// that guest's channel with a clear error, once the host needs the space.
TEST(ShmChannel, HostileHeapTailOnAUnixLinkGivesACleanError) {
  TransportOptions opts;
  opts.heap_bytes = 64 * 1024;
  const std::string address = "unix:" + temp_name("hostile-heap");
  auto listener = wire::listen(address, opts);
  ASSERT_TRUE(listener) << listener.error().describe();
  std::unique_ptr<Channel> guest;
  std::thread t([&] {
    auto c = wire::connect(address, opts);
    if (c) guest = std::move(*c);
  });
  auto host = (*listener)->accept(5s);
  t.join();
  ASSERT_TRUE(host && guest);
  const MappedFile file = guest->incoming_file();
  ASSERT_GE(file.fd, 0);
  // The file is sealed at its size: the guest can neither shrink it under
  // the host's mapping nor grow it.
  EXPECT_NE(::ftruncate(file.fd, 0), 0) << "a guest shrank the heaps' file";
  EXPECT_NE(::ftruncate(file.fd, static_cast<off_t>(file.size) * 2), 0) << "a guest grew the heaps' file";
  // The guest receives direction 1; its heap tail is what the host reads.
  auto* lines = reinterpret_cast<transport::shm::DirectionControl*>(const_cast<std::byte*>(file.base));
  lines[1].consumer.heap_tail.store(uint64_t{1} << 50);
  std::vector<std::byte> blob((*host)->outgoing_heap()->threshold());
  Status st;
  for (int i = 0; i < 16 && st; ++i) {
    Writer w;
    w.set_blob_sink((*host)->outgoing_heap());
    size_t at = w.begin(kBlobOp);
    w.put_data(blob.data(), blob.size());
    w.end(at);
    st = (*host)->send(w.bytes());
  }
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, Errc::kBadValue) << st.error().describe();
}

// A sender blocked on a full ring sleeps on the space doorbell and looks at
// the ring once more before it sleeps; a record written by that last look
// must not be written again. A 4 KiB ring keeps the sender blocked on almost
// every record (messages up to 3 fragments), and a receiver that pauses now
// and then sends it past spinning into the doorbell wait; every message
// must arrive once, whole, with its own size and bytes.
TEST(ShmChannel, BlockedSenderWritesEachRecordOnce) {
  TransportOptions opts;
  opts.ring_bytes = 4096;
  opts.heap_bytes = 0;
  std::string address = "shm:" + temp_name("blocked");
  auto listener = wire::listen(address, opts);
  ASSERT_TRUE(listener) << listener.error().describe();
  constexpr uint64_t kMessages = 4000;
  auto size_of = [](uint64_t seq) { return size_t{8} + (seq * 2654435761u) % 6000; };
  std::string sender_error;
  std::thread sender([&] {
    auto ch = wire::connect(address, opts);
    if (!ch) {
      sender_error = ch.error().describe();
      return;
    }
    std::vector<std::byte> msg;
    for (uint64_t seq = 0; seq < kMessages; ++seq) {
      msg.resize(size_of(seq));
      fill_pattern(msg, seq);
      std::memcpy(msg.data(), &seq, sizeof seq);
      if (auto st = (*ch)->send(msg); !st) {
        sender_error = "send " + std::to_string(seq) + ": " + st.error().describe();
        return;
      }
    }
    (void)(*ch)->receive(10s);  // the receiver's goodbye
  });
  // Declared before the channel: a failed assertion closes the channel
  // first, which ends the sender, then joins it.
  struct Joiner {
    std::thread& t;
    ~Joiner() {
      if (t.joinable()) t.join();
    }
  } joiner{sender};
  auto ch = (*listener)->accept(10s);
  ASSERT_TRUE(ch) << ch.error().describe();
  std::vector<std::byte> want;
  for (uint64_t seq = 0; seq < kMessages; ++seq) {
    auto m = (*ch)->receive(10s);
    ASSERT_TRUE(m) << "message " << seq << ": " << m.error().describe() << "; " << sender_error;
    uint64_t got_seq;
    ASSERT_GE(m->size(), sizeof got_seq) << "message " << seq;
    std::memcpy(&got_seq, m->data(), sizeof got_seq);
    ASSERT_EQ(got_seq, seq);
    ASSERT_EQ(m->size(), size_of(seq)) << "message " << seq;
    want.resize(m->size());
    fill_pattern(want, seq);
    std::memcpy(want.data(), &seq, sizeof seq);
    ASSERT_TRUE(std::equal(m->begin(), m->end(), want.begin())) << "message " << seq;
    if (seq % 16 == 0) std::this_thread::sleep_for(200us);
  }
  uint32_t bye = 0;
  ASSERT_TRUE((*ch)->send(std::as_bytes(std::span(&bye, 1))));
  sender.join();
  EXPECT_EQ(sender_error, "");
}

// Round trips whose answers come a few hundred microseconds later, as a
// GPU's glFinish does: the asking side, when patient, keeps looking and
// hardly ever sleeps on its doorbell (or socket); when not, it sleeps on
// nearly every one.
uint64_t sleeps_over_round_trips(const char* scheme, bool patient, int round_trips) {
  TransportOptions opts;
  opts.patient_waits = patient;
  std::string address = scheme + temp_name(patient ? "patient" : "impatient");
  auto listener = wire::listen(address, opts);
  if (!listener) return UINT64_MAX;
  std::thread answerer([&] {
    auto ch = (*listener)->accept(10s);
    if (!ch) return;
    while (true) {
      auto m = (*ch)->receive(10s);
      if (!m || m->empty()) return;
      (*ch)->release();
      const auto until = std::chrono::steady_clock::now() + 300us;  // the GPU's work
      while (std::chrono::steady_clock::now() < until) {
      }
      const uint32_t answer = 1;
      if (!(*ch)->send(std::as_bytes(std::span(&answer, 1)))) return;
    }
  });
  auto ch = wire::connect(address, opts);
  uint64_t sleeps = UINT64_MAX;
  if (ch) {
    const uint32_t ask = 2;
    for (int i = 0; i < round_trips; ++i) {
      if (!(*ch)->send(std::as_bytes(std::span(&ask, 1))) || !(*ch)->receive(10s)) break;
      (*ch)->release();
    }
    if (auto* ring = dynamic_cast<transport::shm::ShmChannel*>(ch->get())) sleeps = ring->counters().sleeps;
    if (auto* socket = dynamic_cast<transport::SocketChannel*>(ch->get())) sleeps = socket->sleeps();
    (void)(*ch)->send({});  // the answerer's end
  }
  answerer.join();
  return sleeps;
}

TEST(ShmChannel, PatientWaitsKeepLookingThroughShortWaits) {
  constexpr int kRoundTrips = 400;
  for (const char* scheme : {"shm:", "unix:"}) {
    const uint64_t patient = sleeps_over_round_trips(scheme, true, kRoundTrips);
    const uint64_t impatient = sleeps_over_round_trips(scheme, false, kRoundTrips);
    EXPECT_LT(patient, uint64_t{kRoundTrips / 4}) << scheme;
    EXPECT_GT(impatient, uint64_t{kRoundTrips / 2}) << scheme;
    EXPECT_NE(impatient, UINT64_MAX) << scheme;
  }
}

// A polled peer that has been quiet for a while beats slower and says so:
// its silence is not taken for death, yet once it is killed that is noticed
// within the longer window it announced.
TEST(ShmChannel, QuietPolledPeerIsNeitherMistakenForDeadNorMissedWhenKilled) {
  TransportOptions opts;
  opts.ring_bytes = 1u << 16;
  opts.heap_bytes = 0;
  opts.ring_silence = 100ms;  // below the 8 quiet beats (480 ms) a quiet peer is allowed
  std::string address = "shm:file=" + temp_name("quiet");
  auto listener = wire::listen(address, opts);
  ASSERT_TRUE(listener) << listener.error().describe();
  pid_t pid = fork_peer([&] {
    auto ch = wire::connect(address, opts);
    if (!ch) return 2;
    const std::byte hello[1] = {};
    if (!(*ch)->send(hello)) return 3;
    std::this_thread::sleep_for(60s);  // quiet until killed
    return 0;
  });
  auto host = (*listener)->accept(10s);
  ASSERT_TRUE(host) << host.error().describe();
  ASSERT_TRUE((*host)->receive(10s));
  auto quiet = (*host)->receive(2500ms);
  ASSERT_FALSE(quiet);
  EXPECT_EQ(quiet.error().code, Errc::kTimeout) << quiet.error().describe();
  ::kill(pid, SIGKILL);
  const int64_t killed = wire::testing::monotonic_us();
  auto gone = (*host)->receive(10s);
  const int64_t latency_ms = (wire::testing::monotonic_us() - killed) / 1000;
  wait_peer(pid);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code, Errc::kClosed) << gone.error().describe();
  std::printf("[ quiet shmfile ] dead peer noticed after %lld ms\n", static_cast<long long>(latency_ms));
  EXPECT_LT(latency_ms, 1500);
}

}  // namespace
}  // namespace wire
