// What renderer processes cost, side by side with sessions as threads of the
// host in one run: a guest program's start (connect to first frame), with a
// renderer started ahead and back to back (each guest waits for the next
// renderer to start), and steady-state frames per second.
// CONDUIT_EXE names the `conduit` program that renderer processes run.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <thread>

#include "host_fixture.h"
#include "test_guest.h"
#include "wire/gl_encode.h"

namespace hosttest {
namespace {

constexpr GLbitfield kColorBufferBit = 0x4000;
constexpr uint32_t kSize = 256;

host::HostOptions mode(int processes) {
  host::HostOptions o;
  const char* exe = std::getenv("CONDUIT_EXE");
  if (processes && exe) o.renderer_exe = exe;
  return o;
}

// Connects, sets up a context on a surface and renders one frame; false on failure.
std::unique_ptr<TestGuest> first_frame(const std::string& address) {
  auto g = TestGuest::connect(address);
  if (!g || !g->hello().ok() || g->create_context(1, wire::Api::kGles, 3, 0) != 0) return nullptr;
  g->create_surface(1, kSize, kSize);
  g->make_current(1, 1, 1);
  wire::encode_glClear(g->w(), kColorBufferBit);
  g->swap(1, 1);
  if (!g->send().ok() || !g->wait_frame(nullptr)) return nullptr;
  return g;
}

void GuestStart(benchmark::State& state) {
  if (state.range(0) && !std::getenv("CONDUIT_EXE")) return state.SkipWithError("CONDUIT_EXE not set");
  RunningHost host(mode(static_cast<int>(state.range(0))));
  if (!host.ok()) return state.SkipWithError(host.error().c_str());
  const bool ready_ahead = state.range(1) != 0;
  for (auto _ : state) {
    if (!first_frame(host.address())) return state.SkipWithError("no first frame");
    if (ready_ahead) {
      state.PauseTiming();
      std::this_thread::sleep_for(std::chrono::seconds(1));  // the next renderer starts meanwhile
      state.ResumeTiming();
    }
  }
  state.SetLabel(state.range(0) ? "renderer processes" : "threads");
}
BENCHMARK(GuestStart)
    ->ArgsProduct({{0, 1}, {1, 0}})
    ->ArgNames({"processes", "ready_ahead"})
    ->Iterations(20)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void SteadyFrames(benchmark::State& state) {
  if (state.range(0) && !std::getenv("CONDUIT_EXE")) return state.SkipWithError("CONDUIT_EXE not set");
  RunningHost host(mode(static_cast<int>(state.range(0))));
  if (!host.ok()) return state.SkipWithError(host.error().c_str());
  auto g = first_frame(host.address());
  if (!g) return state.SkipWithError("no first frame");
  uint32_t sent = 1;
  for (auto _ : state) {
    wire::encode_glClear(g->w(), kColorBufferBit);
    g->swap(1, ++sent);
    // Two frames in flight, as a double-buffered program keeps them.
    if (!g->send().ok() || (sent > 2 && !g->wait_frame(nullptr))) return state.SkipWithError("frame lost");
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(state.range(0) ? "renderer processes" : "threads");
}
BENCHMARK(SteadyFrames)->Arg(0)->Arg(1)->ArgName("processes")->MinTime(3)->UseRealTime();

}  // namespace
}  // namespace hosttest

BENCHMARK_MAIN();
