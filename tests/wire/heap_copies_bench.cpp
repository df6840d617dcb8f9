// What reading a hostile peer's heap references through private copies
// costs next to borrowing them in place, per reference size.
#include <benchmark/benchmark.h>

#include <vector>

#include "wire/reader.h"
#include "wire/writer.h"

namespace {

// Where the reference starts in the heap (4 KiB-aligned copies of 4 KiB-aligned
// sources measure the processor's 4K aliasing rather than the copy).
constexpr uint64_t kOffset = 64;

std::vector<std::byte> one_reference(uint32_t size) {
  wire::Writer w;
  w.put(static_cast<uint32_t>(wire::DataKind::kHeap));
  w.put(uint64_t{kOffset});
  w.put(size);
  return {w.bytes().begin(), w.bytes().end()};
}

void BM_HeapInPlace(benchmark::State& state) {
  const auto size = static_cast<uint32_t>(state.range(0));
  std::vector<std::byte> heap(kOffset + size, std::byte{1});
  const auto payload = one_reference(size);
  for (auto _ : state) {
    wire::Reader r(payload, 0, heap);
    benchmark::DoNotOptimize(r.get_data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * size);
}

void BM_HeapCopied(benchmark::State& state) {
  const auto size = static_cast<uint32_t>(state.range(0));
  std::vector<std::byte> heap(kOffset + size, std::byte{1});
  wire::HeapCopies copies(heap);
  const auto payload = one_reference(size);
  for (auto _ : state) {
    wire::Reader r(payload, 0, copies);
    benchmark::DoNotOptimize(r.get_data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * size);
}

BENCHMARK(BM_HeapInPlace)->Arg(64)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20)->Arg(8 << 20);
BENCHMARK(BM_HeapCopied)->Arg(64)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20)->Arg(8 << 20);

}  // namespace

BENCHMARK_MAIN();
