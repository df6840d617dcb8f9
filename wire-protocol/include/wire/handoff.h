// Moving a connected channel to another process: the descriptors and
// parameters a peer process needs to serve the channel in this one's place.
// The host's supervisor accepts and authenticates guests, then hands each
// channel to the renderer process that runs its session.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "wire/result.h"
#include "wire/transport.h"

namespace wire {

struct ChannelHandoff {
  enum class Kind : uint32_t { kStream = 1, kShm = 2, kShmFile = 3 };

  ChannelHandoff() = default;
  ~ChannelHandoff();
  ChannelHandoff(ChannelHandoff&& other) noexcept;
  ChannelHandoff& operator=(ChannelHandoff&& other) noexcept;
  ChannelHandoff(const ChannelHandoff&) = delete;
  ChannelHandoff& operator=(const ChannelHandoff&) = delete;

  Kind kind = Kind::kStream;
  std::string description;
  uint64_t region_bytes = 0;  // shared-memory kinds and a stream's heaps: the mapped size
  // Owned: kStream the socket (and the file of its blob heaps); kShm the region, data[0], space[0], data[1],
  // space[1] and the socket; kShmFile the region file. Closed on destruction.
  std::vector<int> fds;
  // Runs in the exporting process once the adopting one is done with the
  // channel (a ring file's listener then serves its next peer).
  std::function<void()> on_release;
  // Stays in the exporting process: whether the peer has gone (closed its
  // end or died; on a polled ring, also silent past ring_silence), known
  // without the adopting process, which may be stuck. Any thread; dropping
  // it closes what it watches through (a stream's duplicate descriptor).
  std::function<bool()> peer_gone;
};

// The receiving side: a channel serving the handed-over connection.
Result<std::unique_ptr<Channel>> adopt_channel(ChannelHandoff handoff, const TransportOptions& opts);

// Two connected channels over a unix socket pair, no handshake: a process
// relays a channel that cannot move through one and hands the other over.
Result<std::pair<std::unique_ptr<Channel>, std::unique_ptr<Channel>>> socket_pair_channels(
    const TransportOptions& opts);

}  // namespace wire
