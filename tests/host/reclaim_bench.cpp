// What it costs the host to look for deleted objects GL has freed: the same
// guest round trip (its stats) with nothing retired, and with one buffer
// deleted before it, so the host scans every vertex array, framebuffer and
// binding of the context first. `arrays` vertex arrays and framebuffers
// give the scan something to walk.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "host_fixture.h"
#include "test_guest.h"
#include "wire/gl_encode.h"

namespace hosttest {
namespace {

constexpr GLenum kArrayBuffer = 0x8892, kElementArrayBuffer = 0x8893, kStreamDraw = 0x88E0;
constexpr GLenum kFramebuffer = 0x8D40;

struct Guest {
  RunningHost host;
  std::unique_ptr<TestGuest> g;
};

// A GLES 3 guest with `arrays` vertex arrays (each with an index buffer) and
// as many framebuffers.
std::unique_ptr<Guest> guest_with(int arrays) {
  auto out = std::make_unique<Guest>();
  out->g = TestGuest::connect(out->host.address());
  TestGuest& g = *out->g;
  if (!g.hello().ok() || g.create_context(1, wire::Api::kGles, 3, 0) != 0) return nullptr;
  g.create_surface(1, 16, 16);
  g.make_current(1, 1, 1);
  for (GLuint i = 1; i <= static_cast<GLuint>(arrays); ++i) {
    wire::encode_glGenVertexArrays(g.w(), 1, &i, sizeof i);
    wire::encode_glBindVertexArray(g.w(), i);
    wire::encode_glGenBuffers(g.w(), 1, &i, sizeof i);
    wire::encode_glBindBuffer(g.w(), kElementArrayBuffer, i);
    wire::encode_glBufferData(g.w(), kElementArrayBuffer, 256, nullptr, kStreamDraw, 0);
    wire::encode_glGenFramebuffers(g.w(), 1, &i, sizeof i);
    wire::encode_glBindFramebuffer(g.w(), kFramebuffer, i);
  }
  wire::encode_glBindVertexArray(g.w(), 0);
  wire::encode_glBindFramebuffer(g.w(), kFramebuffer, 0);
  g.control(wire::ControlOp::kGetStats);
  if (!g.call()) return nullptr;
  return out;
}

void stats_round_trip(benchmark::State& state, bool delete_first) {
  auto guest = guest_with(static_cast<int>(state.range(0)));
  if (!guest) {
    state.SkipWithError("no host");
    return;
  }
  TestGuest& g = *guest->g;
  GLuint buffer = 100000;
  if (!delete_first) wire::encode_glGenBuffers(g.w(), 1, &buffer, sizeof buffer);
  for (auto _ : state) {
    if (delete_first) wire::encode_glGenBuffers(g.w(), 1, &buffer, sizeof buffer);
    wire::encode_glBindBuffer(g.w(), kArrayBuffer, buffer);
    wire::encode_glBufferData(g.w(), kArrayBuffer, 256, nullptr, kStreamDraw, 0);
    if (delete_first) wire::encode_glDeleteBuffers(g.w(), 1, &buffer, sizeof buffer);
    g.control(wire::ControlOp::kGetStats);
    if (!g.call() || !g.lost.empty()) state.SkipWithError("the context is lost");
  }
}

void BM_StatsNothingRetired(benchmark::State& state) { stats_round_trip(state, false); }
void BM_StatsAfterADelete(benchmark::State& state) { stats_round_trip(state, true); }

BENCHMARK(BM_StatsNothingRetired)->Arg(1)->Arg(16)->Arg(64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StatsAfterADelete)->Arg(1)->Arg(16)->Arg(64)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hosttest

BENCHMARK_MAIN();
