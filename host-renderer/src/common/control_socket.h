// Messages between the supervisor and a renderer process: a SOCK_SEQPACKET
// socket pair, one message per packet (a type, JSON text, and descriptors
// passed with SCM_RIGHTS). Neither side trusts the other's JSON beyond
// parsing it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wire/result.h"

namespace host {

enum class ControlMsg : uint32_t {
  kConfigure = 1,  // supervisor -> renderer: options; fds: the counters page
  kReady = 2,      // renderer -> supervisor: what its display offers
  kFailed = 3,     // renderer -> supervisor: why it cannot serve
  kAdopt = 4,      // supervisor -> renderer: a channel handoff; fds: its descriptors
  kEnded = 5,      // renderer -> supervisor: a session ended, and why
  kSurfaceShown = 6,  // renderer -> supervisor: a window's frame board (BoardAnnouncement);
                      // fds: its memory and its doorbell
  kSurfaceGone = 7,   // renderer -> supervisor: {session, surface}
  kInput = 8,         // supervisor -> renderer: a viewer's event for a session's surface
  kProgramCache = 9,  // supervisor -> renderer, before a kAdopt: fds: its end of the
                      // program cache's socket (program_cache_channel.h)
  // On the program cache's socket:
  kCacheGet = 10,    // renderer -> supervisor: {key}
  kCacheEntry = 11,  // supervisor -> renderer: {key, found}; fds: the payload, when found
  kCachePut = 12,    // renderer -> supervisor: {key}; fds: the payload
};

struct ControlMessage {
  ControlMsg type{};
  nlohmann::json body;
  std::vector<int> fds;  // owned by the receiver
};

constexpr size_t kMaxControlFds = 8;

// Both ends, close-on-exec.
wire::Result<std::pair<int, int>> control_socket_pair();

// `wait` false: kTimeout instead of waiting when the peer's queue is full.
wire::Status send_control(int fd, ControlMsg type, const nlohmann::json& body,
                          const std::vector<int>& fds = {}, bool wait = true);
// Waits up to `timeout` (forever when empty); kClosed when the peer is gone,
// kTimeout when nothing came.
wire::Result<ControlMessage> receive_control(int fd,
                                             std::optional<std::chrono::milliseconds> timeout);

}  // namespace host
