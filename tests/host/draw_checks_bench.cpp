// What the per-draw vertex limit (gl/draw_limits.h) costs next to the
// decode every draw goes through anyway: both read the same command.
#include <benchmark/benchmark.h>

#include <vector>

#include "gl/draw_limits.h"
#include "gl/elements_draw.h"
#include "wire/gl_decode.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"
#include "wire/writer.h"

namespace {

constexpr GLenum kTriangles = 0x0004, kUnsignedShort = 0x1403;

// The payload (header left out) of the one command `w` holds.
std::vector<std::byte> payload_of(const wire::Writer& w) {
  auto bytes = w.bytes().subspan(sizeof(wire::CommandHeader));
  return {bytes.begin(), bytes.end()};
}

std::vector<std::byte> draw_arrays() {
  wire::Writer w;
  wire::encode_glDrawArrays(w, kTriangles, 0, 3000);
  return payload_of(w);
}

// glDrawElements of `count` 16-bit indices from client memory.
std::vector<std::byte> draw_elements(int32_t count) {
  std::vector<uint16_t> indices(static_cast<size_t>(count));
  wire::Writer w;
  wire::encode_glDrawElements(w, kTriangles, count, kUnsignedShort, 1, 0, 0, 0, indices.data(), 0,
                              indices.size() * sizeof(uint16_t), false);
  return payload_of(w);
}

void BM_LimitCheck_DrawArrays(benchmark::State& state) {
  const auto p = draw_arrays();
  for (auto _ : state) {
    auto fits = host::draw_within_limit(1u << 28, static_cast<uint32_t>(wire::GlOp::glDrawArrays), wire::Reader(p, 0));
    benchmark::DoNotOptimize(fits);
  }
}
BENCHMARK(BM_LimitCheck_DrawArrays);

void BM_Decode_DrawArrays(benchmark::State& state) {
  const auto p = draw_arrays();
  for (auto _ : state) {
    wire::Reader r(p, 0);
    wire::Args_glDrawArrays a{};
    auto st = wire::decode_glDrawArrays(r, a);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Decode_DrawArrays);

void BM_LimitCheck_DrawElements(benchmark::State& state) {
  const auto p = draw_elements(static_cast<int32_t>(state.range(0)));
  for (auto _ : state) {
    auto fits = host::draw_within_limit(1u << 28, static_cast<uint32_t>(wire::GlOp::glDrawElements), wire::Reader(p, 0));
    benchmark::DoNotOptimize(fits);
  }
}
BENCHMARK(BM_LimitCheck_DrawElements)->Arg(3)->Arg(30000);

void BM_Decode_DrawElements(benchmark::State& state) {
  const auto p = draw_elements(static_cast<int32_t>(state.range(0)));
  for (auto _ : state) {
    wire::Reader r(p, 0);
    host::ElementsDraw d;
    auto st = host::read_elements_draw(r, d);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_Decode_DrawElements)->Arg(3)->Arg(30000);

}  // namespace

BENCHMARK_MAIN();
