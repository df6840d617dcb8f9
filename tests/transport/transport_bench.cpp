// Throughput and round-trip latency of each transport, with the peer in a
// separate process, beside memcpy of the same sizes as the physical bound.
//   build/tests/transport/transport-bench [--benchmark_filter=...]
// Counters, per message, both processes together: syscalls/msg counts every
// system call the shm channel makes in send/receive (doorbells, yields,
// polls), kicks/msg the doorbell writes, sleeps/msg the waits that went past
// spinning and yielding.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "peer_process.h"
#include "shm_channel.h"
#include "wire/transport.h"

namespace wire {
namespace {

using namespace std::chrono_literals;

enum class PeerMode { kSink, kEcho };
constexpr size_t kSyncSize = 1;  // a message this small asks the sink for an ack

struct PeerCounters {
  uint64_t kicks = 0;
  uint64_t sleeps = 0;
  uint64_t syscalls = 0;
};

PeerCounters counters_of(Channel& ch) {
  if (auto* shm = dynamic_cast<transport::shm::ShmChannel*>(&ch)) {
    auto c = shm->counters();
    return {c.kicks, c.sleeps, c.syscalls};
  }
  return {};
}

// Serves one connection: a sink copies each message out, as the batch
// decoder does, and acknowledges sync messages with its counters; an echo
// peer returns every message.
int serve_peer(const std::string& address, PeerMode mode, const TransportOptions& opts) {
  auto ch = wire::connect(address, opts);
  if (!ch) return 2;
  std::vector<std::byte> copy_out;
  for (;;) {
    auto m = (*ch)->receive(30s);
    if (!m) return m.error().code == Errc::kClosed ? 0 : 3;
    if (mode == PeerMode::kSink && m->size() > kSyncSize) {
      if (copy_out.size() < m->size()) copy_out.resize(m->size());
      std::memcpy(copy_out.data(), m->data(), m->size());
      benchmark::DoNotOptimize(copy_out.data());
    }
    if (mode == PeerMode::kEcho) {
      std::vector<std::byte> copy(m->begin(), m->end());
      (*ch)->release();
      if (!(*ch)->send(copy)) return 4;
    } else if (m->size() == kSyncSize) {
      (*ch)->release();
      PeerCounters c = counters_of(**ch);
      if (!(*ch)->send({reinterpret_cast<std::byte*>(&c), sizeof c})) return 4;
    }
  }
}

struct Session {
  std::unique_ptr<Listener> listener;
  std::unique_ptr<Channel> channel;
  pid_t pid = -1;

  ~Session() {
    channel.reset();
    if (pid > 0) wire::testing::wait_peer(pid);
  }
};

// tcp runs TLS keyed from a token; tcp-plaintext is the --insecure link.
TransportOptions options_for(const std::string& kind) {
  TransportOptions o;
  if (kind.starts_with("tcp")) o.token = "bench token";
  o.insecure = kind == "tcp-plaintext";
  return o;
}

bool open_session(const std::string& kind, PeerMode mode, Session* s, benchmark::State& state) {
  std::string name = "@conduit-bench-" + std::to_string(getpid());
  const bool tcp = kind.starts_with("tcp");
  std::string address = tcp ? "tcp:127.0.0.1:0" : kind + ":" + name;
  const TransportOptions opts = options_for(kind);
  auto l = wire::listen(address, opts);
  if (!l) {
    state.SkipWithError(l.error().describe().c_str());
    return false;
  }
  s->listener = std::move(*l);
  std::string connect_to = tcp ? s->listener->describe() : address;
  s->pid = wire::testing::fork_peer([&] { return serve_peer(connect_to, mode, opts); });
  auto ch = s->listener->accept(10s);
  if (!ch) {
    state.SkipWithError(ch.error().describe().c_str());
    return false;
  }
  s->channel = std::move(*ch);
  return true;
}

void BM_Throughput(benchmark::State& state, std::string kind) {
  const size_t size = static_cast<size_t>(state.range(0));
  Session s;
  if (!open_session(kind, PeerMode::kSink, &s, state)) return;
  std::vector<std::byte> msg(size, std::byte{0x5a});
  std::byte sync{1};
  PeerCounters before = counters_of(*s.channel);
  for (auto _ : state) {
    if (!s.channel->send(msg)) {
      state.SkipWithError("send failed");
      return;
    }
  }
  // Wait until the peer has taken everything, so the time covers delivery.
  (void)s.channel->send({&sync, 1});
  auto ack = s.channel->receive(30s);
  if (!ack || ack->size() != sizeof(PeerCounters)) {
    state.SkipWithError("no acknowledgement");
    return;
  }
  PeerCounters peer;
  std::memcpy(&peer, ack->data(), sizeof peer);
  PeerCounters mine = counters_of(*s.channel);
  double n = static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * size));
  state.counters["kicks/msg"] = (mine.kicks - before.kicks + peer.kicks) / n;
  state.counters["sleeps/msg"] = (mine.sleeps - before.sleeps + peer.sleeps) / n;
  state.counters["syscalls/msg"] = (mine.syscalls - before.syscalls + peer.syscalls) / n;
}

void BM_RoundTrip(benchmark::State& state, std::string kind) {
  const size_t size = static_cast<size_t>(state.range(0));
  Session s;
  if (!open_session(kind, PeerMode::kEcho, &s, state)) return;
  std::vector<std::byte> msg(size, std::byte{0x33});
  PeerCounters before = counters_of(*s.channel);
  for (auto _ : state) {
    auto st = s.channel->send(msg);
    auto back = s.channel->receive(5s);
    if (!st || !back || back->size() != size) {
      state.SkipWithError("round trip failed");
      return;
    }
    s.channel->release();
  }
  PeerCounters mine = counters_of(*s.channel);
  double n = static_cast<double>(state.iterations());
  state.counters["kicks/msg"] = (mine.kicks - before.kicks) / n;
  state.counters["sleeps/msg"] = (mine.sleeps - before.sleeps) / n;
  state.counters["syscalls/msg"] = (mine.syscalls - before.syscalls) / n;
}

void BM_Memcpy(benchmark::State& state) {
  const size_t size = static_cast<size_t>(state.range(0));
  std::vector<std::byte> src(size, std::byte{0x11}), dst(size);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), size);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * size));
}

// memcpy into successive slots of an 8 MiB buffer, as a producer fills the
// default ring: the bound once the data no longer stays in the cache.
void BM_MemcpyRing(benchmark::State& state) {
  const size_t size = static_cast<size_t>(state.range(0));
  const size_t ring = TransportOptions{}.ring_bytes;
  std::vector<std::byte> src(size, std::byte{0x11}), dst(ring);
  size_t at = 0;
  for (auto _ : state) {
    if (at + size > ring) at = 0;
    std::memcpy(dst.data() + at, src.data(), size);
    at += size;
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * size));
}

const std::vector<int64_t> kSizes = {256, 4096, 64 * 1024, 1024 * 1024};

void register_all() {
  for (int64_t size : kSizes) {
    benchmark::RegisterBenchmark("memcpy", BM_Memcpy)->Arg(size)->UseRealTime();
  }
  for (int64_t size : kSizes) {
    benchmark::RegisterBenchmark("memcpy-8MiB-ring", BM_MemcpyRing)->Arg(size)->UseRealTime();
  }
  for (const char* kind : {"shm", "unix", "tcp-plaintext", "tcp"}) {
    auto* b = benchmark::RegisterBenchmark((std::string("throughput/") + kind).c_str(),
                                           BM_Throughput, std::string(kind));
    for (int64_t size : kSizes) b->Arg(size);
    b->UseRealTime();
  }
  for (const char* kind : {"shm", "unix", "tcp-plaintext", "tcp"}) {
    benchmark::RegisterBenchmark((std::string("roundtrip/") + kind).c_str(), BM_RoundTrip,
                                 std::string(kind))
        ->Arg(64)
        ->Arg(4096)
        ->UseRealTime();
  }
}

}  // namespace
}  // namespace wire

int main(int argc, char** argv) {
  wire::register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
