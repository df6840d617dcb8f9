// `conduit replay`: a captured session run again on this host with no
// guest (docs/capture.md). The capture's batches go through a session
// exactly as a guest's would (framing, decoding, every check), so a capture
// is no more trusted than a guest.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "host/egl_display.h"
#include "host/session.h"
#include "wire/result.h"

namespace host {

struct ReplayOptions {
  // Frames first..last (from 1) are handed to on_frame; the replay stops
  // after `last`.
  uint64_t first = 1;
  uint64_t last = UINT64_MAX;
  std::function<void(uint64_t number, const wire::Frame&, std::span<const std::byte> pixels, uint64_t hash)> on_frame;
  SessionLimits limits;
};

struct ReplayResult {
  nlohmann::json info;  // the capture's description
  uint64_t batches = 0;
  uint64_t heap_records = 0;  // shared-heap reads placed before their batches
  uint64_t heap_bytes = 0;
  uint64_t commands = 0;
  uint64_t frames = 0;            // frames the replay made
  uint64_t recorded_frames = 0;   // frames the capture says the guest received (as far as read)
  uint64_t compared = 0;          // frames whose hashes were compared with the capture's
  uint64_t mismatches = 0;        // of those, how many differ
  uint64_t first_mismatch = 0;    // its number, when any
  uint64_t contexts_lost = 0;
  double host_seconds = 0;        // the session's work, reading the file excluded
  bool complete = false;          // the capture's end was reached
  // Where a truncated or corrupted capture stopped the replay.
  std::optional<wire::Error> broken;
};

// Fails only when the capture cannot be started (another protocol, not a
// capture); a capture broken later is reported in ReplayResult::broken,
// with what was replayed before it.
wire::Result<ReplayResult> replay_capture(const std::string& path, const EglDisplay& display,
                                          const ReplayOptions& options);

}  // namespace host
