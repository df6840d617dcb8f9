// Behaviour every transport shares, run against each of them with the two
// ends in separate processes.
#include <gtest/gtest.h>

#include <csignal>
#include <random>
#include <thread>

#include "peer_process.h"
#include "wire/batch.h"
#include "wire/handoff.h"
#include "wire/reader.h"
#include "wire/writer.h"
#include "wire/transport.h"

namespace wire {
namespace {

using namespace std::chrono_literals;
using namespace wire::testing;  // the peer-process helpers every transport test uses

struct Endpoint {
  std::unique_ptr<Listener> listener;
  std::string connect_address;
};

Endpoint make_endpoint(const std::string& kind, const TransportOptions& opts) {
  static int counter = 0;
  std::string base = ::testing::TempDir() + "conduit-" + std::to_string(getpid()) + "-" +
                     std::to_string(counter++);
  std::string address = kind == "unix"            ? "unix:" + base + ".sock"
                        : kind.starts_with("tcp") ? "tcp:127.0.0.1:0"
                        : kind == "shm"     ? "shm:" + base + ".sock"
                                            : "shm:file=" + base + ".ring";
  auto l = wire::listen(address, opts);
  EXPECT_TRUE(l) << address << ": " << l.error().describe();
  if (!l) return {};
  Endpoint e{std::move(*l), address};
  if (kind.starts_with("tcp")) e.connect_address = e.listener->describe();
  return e;
}

TransportOptions small_ring_options() {
  TransportOptions o;
  o.ring_bytes = 1u << 20;  // forces fragments and frequent wrap-around
  o.heap_bytes = 1u << 20;
  o.max_message_bytes = 8u << 20;
  return o;
}

// tcp runs TLS keyed from a token; tcpplain the plaintext link.
TransportOptions options_for(const std::string& kind) {
  TransportOptions o = small_ring_options();
  if (kind.starts_with("tcp")) o.token = "test token";
  o.insecure = kind == "tcpplain";
  return o;
}

// 1 byte to 6 MiB, spread over every power of two.
std::vector<size_t> message_sizes(size_t count) {
  std::mt19937 rng(42);
  std::vector<size_t> sizes{1, 2, 3, 4, 7, 8, 9, (3u << 20) + 5, 6u << 20};
  while (sizes.size() < count) {
    size_t e = rng() % 23;
    sizes.push_back(1 + rng() % (size_t{1} << e));
  }
  return sizes;
}

class Channels : public ::testing::TestWithParam<std::string> {};

struct ChannelPair {
  std::unique_ptr<Listener> listener;  // first: its channels go before it
  std::unique_ptr<Channel> server, client;
};

// Both ends of a link of `kind` in this process; null ends when it failed.
ChannelPair connect_in_process(const std::string& kind) {
  TransportOptions opts = options_for(kind);
  Endpoint ep = make_endpoint(kind, opts);
  if (!ep.listener) return {};
  ChannelPair pair{std::move(ep.listener), nullptr, nullptr};
  std::thread connecting([&] {
    auto c = wire::connect(ep.connect_address, opts);
    if (c) pair.client = std::move(*c);
  });
  auto server = pair.listener->accept(10s);
  connecting.join();
  EXPECT_TRUE(server) << server.error().describe();
  if (server) pair.server = std::move(*server);
  return pair;
}

TEST_P(Channels, RandomSizesBothWaysAcrossProcesses) {
  TransportOptions opts = options_for(GetParam());
  Endpoint ep = make_endpoint(GetParam(), opts);
  ASSERT_TRUE(ep.listener);
  auto sizes = message_sizes(48);
  pid_t pid = fork_peer([&] {
    auto ch = wire::connect(ep.connect_address, opts);
    if (!ch) return 2;
    bool send_ok = true;
    std::thread sender([&] {
      std::vector<std::byte> buf;
      for (size_t i = 0; i < sizes.size(); ++i) {
        buf.resize(sizes[i]);
        fill_pattern(buf, i);
        if (!(*ch)->send(buf)) send_ok = false;
      }
    });
    int rc = 0;
    for (size_t i = 0; i < sizes.size() && rc == 0; ++i) {
      auto m = (*ch)->receive(10s);
      if (!m || m->size() != sizes[i] || !matches_pattern(*m, 1000 + i)) rc = 3;
      (*ch)->release();
    }
    sender.join();
    return send_ok ? rc : 4;
  });
  auto ch = ep.listener->accept(10s);
  ASSERT_TRUE(ch) << ch.error().describe();
  std::vector<std::byte> buf;
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto m = (*ch)->receive(10s);
    ASSERT_TRUE(m) << "message " << i << ": " << m.error().describe();
    ASSERT_EQ(m->size(), sizes[i]) << "message " << i;
    ASSERT_TRUE(matches_pattern(*m, i)) << "message " << i << " differs";
    (*ch)->release();
    buf.resize(sizes[i]);
    fill_pattern(buf, 1000 + i);
    auto st = (*ch)->send(buf);
    ASSERT_TRUE(st) << st.error().describe();
  }
  EXPECT_EQ(wait_peer(pid), 0);
}

TEST_P(Channels, KilledPeerIsNoticedAndListenerCarriesOn) {
  TransportOptions opts = options_for(GetParam());
  opts.max_message_bytes = 4u << 20;
  opts.ring_silence = 100ms;  // a polled ring's peer is gone after this silence
  Endpoint ep = make_endpoint(GetParam(), opts);
  ASSERT_TRUE(ep.listener);
  const bool one_peer_at_a_time = GetParam() == "shmfile";

  // A survivor connected before the crash must keep working after it.
  pid_t survivor = 0;
  std::unique_ptr<Channel> survivor_ch;
  if (!one_peer_at_a_time) {
    survivor = fork_peer([&] {
      auto ch = wire::connect(ep.connect_address, opts);
      if (!ch) return 2;
      auto ping = (*ch)->receive(10s);
      if (!ping || !matches_pattern(*ping, 7)) return 3;
      std::vector<std::byte> pong(5000);
      fill_pattern(pong, 8);
      if (!(*ch)->send(pong)) return 4;
      auto end = (*ch)->receive(10s);
      return end.ok() ? 5 : (end.error().code == Errc::kClosed ? 0 : 6);
    });
    auto a = ep.listener->accept(10s);
    ASSERT_TRUE(a) << a.error().describe();
    survivor_ch = std::move(*a);
  }

  wire::testing::Pipe death;
  pid_t victim = fork_peer([&] {
    auto ch = wire::connect(ep.connect_address, opts);
    if (!ch) return 2;
    std::thread sender([&] {
      std::vector<std::byte> buf(3u << 20);
      for (uint64_t i = 0;; ++i) {
        fill_pattern(buf, i);
        if (!(*ch)->send(buf)) break;
      }
    });
    std::this_thread::sleep_for(30ms);
    death.put(monotonic_us());
    raise(SIGKILL);
    return 9;
  });
  auto b = ep.listener->accept(10s);
  ASSERT_TRUE(b) << b.error().describe();
  Error last = make_error(Errc::kIo, "none");
  for (uint64_t i = 0;; ++i) {
    auto m = (*b)->receive(10s);
    if (!m) {
      last = m.error();
      break;
    }
    ASSERT_EQ(m->size(), 3u << 20);
    ASSERT_TRUE(matches_pattern(*m, i)) << "message " << i << " damaged";
    (*b)->release();
  }
  int64_t noticed = monotonic_us();
  int64_t killed = 0;
  ASSERT_TRUE(death.get(&killed));
  EXPECT_EQ(last.code, Errc::kClosed) << last.describe();
  int64_t latency_us = noticed - killed;
  std::printf("[ %s ] dead peer noticed after %.1f ms\n", GetParam().c_str(), latency_us / 1e3);
  EXPECT_LT(latency_us, one_peer_at_a_time ? 250000 : 150000);
  EXPECT_EQ(wait_peer(victim), -SIGKILL);
  b->reset();

  if (survivor_ch) {
    std::vector<std::byte> ping(100);
    fill_pattern(ping, 7);
    ASSERT_TRUE(survivor_ch->send(ping));
    auto pong = survivor_ch->receive(10s);
    ASSERT_TRUE(pong) << pong.error().describe();
    EXPECT_TRUE(matches_pattern(*pong, 8));
    survivor_ch->release();
    survivor_ch->close();
    EXPECT_EQ(wait_peer(survivor), 0);
  }

  pid_t next = fork_peer([&] {
    auto ch = wire::connect(ep.connect_address, opts);
    if (!ch) return 2;
    std::vector<std::byte> hello(64);
    fill_pattern(hello, 99);
    return (*ch)->send(hello) ? 0 : 3;
  });
  auto c = ep.listener->accept(10s);
  ASSERT_TRUE(c) << c.error().describe();
  auto m = (*c)->receive(10s);
  ASSERT_TRUE(m) << m.error().describe();
  EXPECT_TRUE(matches_pattern(*m, 99));
  EXPECT_EQ(wait_peer(next), 0);
}

TEST_P(Channels, OversizedMessageIsRefused) {
  TransportOptions opts = options_for(GetParam());
  TransportOptions strict = opts;
  strict.max_message_bytes = 64 * 1024;
  Endpoint ep = make_endpoint(GetParam(), strict);
  ASSERT_TRUE(ep.listener);
  pid_t pid = fork_peer([&] {
    auto ch = wire::connect(ep.connect_address, opts);
    if (!ch) return 2;
    std::vector<std::byte> big(200 * 1024);
    // The listener may refuse and hang up while the tail is still going
    // out (TLS encrypts as it sends): then the send sees the hang-up.
    auto sent = (*ch)->send(big);
    if (!sent && sent.error().code != Errc::kClosed) return 3;
    // Stay until the listener has looked at it.
    (void)(*ch)->receive(5s);
    return 0;
  });
  auto ch = ep.listener->accept(10s);
  ASSERT_TRUE(ch) << ch.error().describe();
  auto m = (*ch)->receive(10s);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, Errc::kLimit) << m.error().describe();
  (*ch)->close();
  EXPECT_EQ(wait_peer(pid), 0);
}

TEST_P(Channels, ReceiveTimesOutThenStillWorks) {
  ChannelPair link = connect_in_process(GetParam());
  ASSERT_TRUE(link.server && link.client);
  auto start = monotonic_us();
  auto none = link.server->receive(20ms);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, Errc::kTimeout);
  EXPECT_GE(monotonic_us() - start, 15000);
  std::vector<std::byte> msg(1000);
  fill_pattern(msg, 5);
  ASSERT_TRUE(link.client->send(msg));
  auto m = link.server->receive(1s);
  ASSERT_TRUE(m) << m.error().describe();
  EXPECT_TRUE(matches_pattern(*m, 5));
  // A clean close is seen as kClosed by the other side, after pending data.
  ASSERT_TRUE(link.client->send(msg));
  link.client.reset();
  auto pending = link.server->receive(1s);
  ASSERT_TRUE(pending) << pending.error().describe();
  auto gone = link.server->receive(1s);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code, Errc::kClosed) << gone.error().describe();
}

// After a handoff, the exporting process (the host's supervisor) still
// learns that the peer went, whatever the adopting process (a renderer,
// maybe stuck) does: at once when it closes; on a polled ring also when it
// stops beating, while a stopped peer on a socket is still there.
TEST_P(Channels, TheExporterOfAHandedOffChannelSeesItsPeerGo) {
  if (GetParam() == "tcp") GTEST_SKIP() << "TLS channels are relayed, not handed off";
  TransportOptions opts = options_for(GetParam());
  opts.ring_silence = 100ms;
  Endpoint ep = make_endpoint(GetParam(), opts);
  ASSERT_TRUE(ep.listener);
  auto gone_within = [](ChannelHandoff& h, std::chrono::milliseconds limit) {
    const int64_t until = monotonic_us() + limit.count() * 1000;
    while (!h.peer_gone()) {
      if (monotonic_us() > until) return false;
      std::this_thread::sleep_for(5ms);
    }
    return true;
  };
  const bool polled = GetParam() == "shmfile";
  for (const bool stop : {false, true}) {
    wire::testing::Pipe go;
    pid_t peer = fork_peer([&] {
      auto ch = wire::connect(ep.connect_address, opts);
      if (!ch) return 2;
      int64_t how = 0;
      if (!go.get(&how)) return 3;
      if (how == 1) raise(SIGSTOP);
      (*ch)->close();
      return 0;
    });
    auto accepted = ep.listener->accept(10s);
    ASSERT_TRUE(accepted) << accepted.error().describe();
    auto handoff = (*accepted)->export_handoff();
    ASSERT_TRUE(handoff) << handoff.error().describe();
    accepted->reset();
    ASSERT_TRUE(handoff->peer_gone);
    EXPECT_FALSE(gone_within(*handoff, 300ms)) << "a live peer is not gone";
    go.put(int64_t{stop ? 1 : 0});
    if (!stop) {
      EXPECT_TRUE(gone_within(*handoff, 2s)) << "a peer that closed is gone";
      EXPECT_EQ(wait_peer(peer), 0);
    } else {
      EXPECT_EQ(gone_within(*handoff, 2s), polled) << "a stopped peer is gone only by its silence";
      ::kill(peer, SIGKILL);
      EXPECT_TRUE(gone_within(*handoff, 2s)) << "a killed peer is gone";
      EXPECT_EQ(wait_peer(peer), -SIGKILL);
    }
    if (handoff->on_release) handoff->on_release();
  }
}

// Links on this machine carry a large payload in a heap both ways, named by
// offset in the message, also after the listener's end has moved to
// another owner (as the host hands a guest to its renderer); the receiver
// can hand the heap's file on (to the X server) since it holds the bytes.
// Links across the network have no heap.
TEST_P(Channels, LocalLinksCarryLargePayloadsInAHeapAfterAHandoff) {
  ChannelPair link = connect_in_process(GetParam());
  ASSERT_TRUE(link.server && link.client);
  if (GetParam().starts_with("tcp")) {
    EXPECT_EQ(link.client->outgoing_heap(), nullptr);
    EXPECT_EQ(link.server->outgoing_heap(), nullptr);
    return;
  }
  // Bytes that cross by offset are not worth compressing.
  EXPECT_EQ(compression_for(*link.client), Compression::kOff);
  EXPECT_EQ(compression_for(*link.server), Compression::kOff);
  auto handoff = link.server->export_handoff();
  ASSERT_TRUE(handoff) << handoff.error().describe();
  auto on_release = handoff->on_release;
  auto adopted = adopt_channel(std::move(*handoff), options_for(GetParam()));
  ASSERT_TRUE(adopted) << adopted.error().describe();
  link.server = std::move(*adopted);
  constexpr uint32_t kBlobOp = kFirstGlOpcode + 1;
  uint64_t seed = 40;
  for (auto [from, to] : {std::pair{link.server.get(), link.client.get()}, {link.client.get(), link.server.get()}}) {
    for (int round = 0; round < 3; ++round, ++seed) {
      ASSERT_NE(from->outgoing_heap(), nullptr) << from->describe();
      Writer w;
      w.set_blob_sink(from->outgoing_heap());
      std::vector<std::byte> blob(from->outgoing_heap()->threshold() * 8);
      fill_pattern(blob, seed);
      size_t at = w.begin(kBlobOp);
      w.put_data(blob.data(), blob.size());
      w.end(at);
      ASSERT_TRUE(from->send(w.bytes()));
      auto msg = to->receive(5s);
      ASSERT_TRUE(msg) << msg.error().describe();
      CommandIterator it(*msg);
      auto cmd = it.next();
      ASSERT_TRUE(cmd);
      Reader r(cmd->payload, cmd->offset, to->incoming_heap());
      auto data = r.get_data();
      ASSERT_TRUE(data) << data.error().describe();
      EXPECT_EQ(data->kind, DataKind::kHeap);
      EXPECT_TRUE(matches_pattern(data->bytes, seed));
      EXPECT_TRUE(to->incoming_file().holds(data->bytes));
      to->release();
    }
  }
  link.server.reset();
  if (on_release) on_release();
}

// Compression pays only across a network: both ends of every link but
// TCP's (TLS or plain) count as this machine's.
TEST_P(Channels, OnlyTcpLinksLeaveTheMachine) {
  ChannelPair link = connect_in_process(GetParam());
  ASSERT_TRUE(link.server && link.client);
  const bool local = !GetParam().starts_with("tcp");
  EXPECT_EQ(link.server->local(), local) << link.server->describe();
  EXPECT_EQ(link.client->local(), local) << link.client->describe();
}

INSTANTIATE_TEST_SUITE_P(Transports, Channels, ::testing::Values("unix", "tcp", "tcpplain", "shm", "shmfile"),
                         [](const auto& info) { return info.param; });

TEST(Address, BadAddressesAreRefused) {
  for (const char* a : {"", "unix", "unix:", "tcp:host", "tcp:host:99999", "tcp:host:x",
                        "carrier-pigeon:x", "shm:", "shm:file="}) {
    auto c = wire::connect(a);
    ASSERT_FALSE(c) << a;
    EXPECT_EQ(c.error().code, Errc::kBadValue) << a;
  }
}

}  // namespace
}  // namespace wire
