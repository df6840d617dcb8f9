// CONDUIT_CAPTURE=DIR: every batch a connection sends is also written to DIR,
// uncompressed, one file per batch (the commands as the host decodes them),
// so that real programs' streams can seed the fuzzers and be replayed.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace icd {

class Capture {
 public:
  // A capture into $CONDUIT_CAPTURE, or null when it is unset or empty.
  static std::unique_ptr<Capture> from_env();
  explicit Capture(std::string prefix) : prefix_(std::move(prefix)) {}

  // Writes DIR/<pid>-<connection>-<batch>.bin; a failure is reported once and
  // ends the capture, never the program.
  void write(std::span<const std::byte> commands);

 private:
  std::string prefix_;  // DIR/<pid>-<connection>-
  uint64_t next_ = 0;
  bool failed_ = false;
};

}  // namespace icd
