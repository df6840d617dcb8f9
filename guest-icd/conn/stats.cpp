#include "conn/stats.h"

#include <cstdlib>
#include <cstring>

namespace icd {

bool stats_enabled() {
  const char* v = std::getenv("CONDUIT_STATS");
  return v && *v && std::strcmp(v, "0") != 0;
}

void Stats::print(std::FILE* out) const {
  const uint64_t raw = raw_bytes.load();
  const uint64_t wire = wire_bytes.load();
  const uint64_t s = swaps.load();
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::fprintf(out,
               "conduit: batches %llu, commands %llu, bytes %llu raw / %llu sent (%.2fx), "
               "sync round trips %llu, swaps %llu, frames presented %llu, round trips per frame %.3f, "
               "frames that waited for the host %llu, shared allocations %llu, waits ended before their reply %llu\n",
               u(batches), u(commands), u(raw), u(wire),
               wire ? static_cast<double>(raw) / static_cast<double>(wire) : 0.0, u(round_trips), u(s),
               u(frames), s ? static_cast<double>(round_trips.load()) / static_cast<double>(s) : 0.0,
               u(swaps_with_round_trips), u(shared_allocations), u(ended_before_reply));
  const uint64_t shown = frames.load();
  if (s == 0 || shown == 0) return;
  auto us = [](const std::atomic<uint64_t>& ns, uint64_t n) { return static_cast<double>(ns.load()) / 1e3 / n; };
  std::fprintf(out,
               "conduit: %llu frames put in place; per frame %.1f us presenting; per swap %.1f us waiting for frames, %.1f us asking the "
               "window's size\n",
               u(frames_in_place), us(present_ns, shown), us(swap_wait_ns, s), us(size_poll_ns, s));
}

}  // namespace icd
