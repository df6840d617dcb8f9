#include "conn/capture.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace icd {

std::unique_ptr<Capture> Capture::from_env() {
  const char* dir = std::getenv("CONDUIT_CAPTURE");
  if (!dir || !*dir) return nullptr;
  static std::atomic<uint32_t> connections{0};
  std::string prefix = std::string(dir) + "/" + std::to_string(getpid()) + "-" +
                       std::to_string(connections.fetch_add(1)) + "-";
  return std::make_unique<Capture>(std::move(prefix));
}

void Capture::write(std::span<const std::byte> commands) {
  if (failed_) return;
  char seq[16];
  std::snprintf(seq, sizeof seq, "%06llu", static_cast<unsigned long long>(next_++));
  const std::string path = prefix_ + seq + ".bin";
  std::FILE* f = std::fopen(path.c_str(), "wbx");
  bool ok = f && std::fwrite(commands.data(), 1, commands.size(), f) == commands.size();
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) {
    std::fprintf(stderr, "conduit: CONDUIT_CAPTURE: cannot write %s: %s; capture stopped\n", path.c_str(),
                 std::strerror(errno));
    failed_ = true;
  }
}

}  // namespace icd
