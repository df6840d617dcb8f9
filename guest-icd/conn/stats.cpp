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
  const uint64_t f = frames.load();
  std::fprintf(out,
               "conduit: batches %llu, commands %llu, bytes %llu raw / %llu sent (%.2fx), "
               "sync round trips %llu, frames %llu (dropped %llu), round trips per frame %.2f\n",
               static_cast<unsigned long long>(batches.load()),
               static_cast<unsigned long long>(commands.load()),
               static_cast<unsigned long long>(raw), static_cast<unsigned long long>(wire),
               wire ? static_cast<double>(raw) / static_cast<double>(wire) : 0.0,
               static_cast<unsigned long long>(round_trips.load()), static_cast<unsigned long long>(f),
               static_cast<unsigned long long>(frames_dropped.load()),
               f ? static_cast<double>(round_trips.load()) / static_cast<double>(f) : 0.0);
}

}  // namespace icd
