// Compression ratio and cost per MiB of batch framing in each mode, on
// GL-like frames and on incompressible bytes (the worst case for auto).
//   build/tests/transport/batch-bench
#include <benchmark/benchmark.h>

#include <random>

#include "gl_like_stream.h"
#include "wire/batch.h"

namespace wire {
namespace {

std::vector<std::vector<std::byte>> gl_frames(size_t count, uint32_t draws) {
  std::mt19937 rng(1);
  std::vector<std::vector<std::byte>> frames;
  for (uint32_t f = 0; f < count; ++f) {
    Writer w;
    wire::testing::write_gl_like_frame(w, f, draws, rng);
    frames.emplace_back(w.bytes().begin(), w.bytes().end());
  }
  return frames;
}

std::vector<std::vector<std::byte>> noise_frames(size_t count, size_t size) {
  std::mt19937 rng(2);
  std::vector<std::vector<std::byte>> frames(count, std::vector<std::byte>(size));
  for (auto& f : frames)
    for (auto& b : f) b = static_cast<std::byte>(rng());
  return frames;
}

void run(benchmark::State& state, const std::vector<std::vector<std::byte>>& frames,
         Compression mode) {
  BatchEncoder enc(mode);
  BatchDecoder dec(64u << 20);
  size_t i = 0;
  uint64_t raw = 0;
  for (auto _ : state) {
    const auto& f = frames[i++ % frames.size()];
    auto msg = enc.encode(f);
    auto batch = dec.decode(*msg);
    if (!batch) {
      state.SkipWithError(batch.error().describe().c_str());
      return;
    }
    benchmark::DoNotOptimize(batch->commands.data());
    raw += f.size();
  }
  const BatchStats& s = enc.stats();
  state.SetBytesProcessed(static_cast<int64_t>(raw));
  state.counters["ratio"] = s.wire_bytes ? double(s.raw_bytes) / double(s.wire_bytes) : 0;
  // An inverted rate: seconds per MiB (printed with an SI prefix, u = us).
  state.counters["s/MiB"] = benchmark::Counter(double(raw) / (1 << 20),
                                                benchmark::Counter::kIsRate |
                                                    benchmark::Counter::kInvert);
}

void BM_GlFrames(benchmark::State& state, Compression mode) {
  // More distinct frames than the zstd window holds, so history only helps
  // as much as real consecutive frames would.
  static const auto frames = gl_frames(256, 200);
  run(state, frames, mode);
}

void BM_Noise(benchmark::State& state, Compression mode) {
  static const auto frames = noise_frames(256, 64 * 1024);
  run(state, frames, mode);
}

BENCHMARK_CAPTURE(BM_GlFrames, off, Compression::kOff);
BENCHMARK_CAPTURE(BM_GlFrames, fast, Compression::kFast);
BENCHMARK_CAPTURE(BM_GlFrames, auto, Compression::kAuto);
BENCHMARK_CAPTURE(BM_Noise, off, Compression::kOff);
BENCHMARK_CAPTURE(BM_Noise, fast, Compression::kFast);
BENCHMARK_CAPTURE(BM_Noise, auto, Compression::kAuto);

}  // namespace
}  // namespace wire

BENCHMARK_MAIN();
