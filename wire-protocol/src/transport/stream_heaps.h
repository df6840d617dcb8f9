// Blob heaps beside a unix stream socket: one shared file, made and sealed
// by the listener and passed at the link handshake, holds a heap per
// direction. Large payloads (frames, texture uploads) are written there
// once and named by offset in the stream, as over shm:, instead of being
// copied through the socket; the heap file can also be handed to the X
// server, so a frame is put from where the host wrote it.
//
// The region: the two directions' control lines (shm_ring.h's
// DirectionControl; dir[d] is what side d receives), then dir[0]'s heap,
// then dir[1]'s. The listener is side 0. Each message on the stream carries
// its producer's heap mark, which the receiver stores as the heap's tail
// once it releases the message.
#pragma once

#include <memory>

#include "shm_channel.h"
#include "shm_ring.h"
#include "wire/mapped_file.h"
#include "wire/result.h"

namespace wire::transport {

class StreamHeaps {
 public:
  // The listener's: a fresh sealed file with two heaps of `heap_bytes`.
  static Result<std::unique_ptr<StreamHeaps>> create(size_t heap_bytes);
  // Either side's, from the file the listener made; `region_bytes` as announced.
  static Result<std::unique_ptr<StreamHeaps>> attach(int file, uint64_t region_bytes, int side);

  BlobSink* outgoing() { return &producer_; }
  std::span<const std::byte> incoming() const { return incoming_; }
  MappedFile incoming_file() const { return {map_->file(), map_->base(), map_->size()}; }
  // The producer's heap head, sent with each message.
  uint64_t mark() const { return producer_.mark(); }
  // The message that carried `mark` is done with: its heap bytes may be reused.
  void released(uint64_t mark);
  // Set once the peer reported a heap tail that cannot be right.
  const std::optional<Error>& error() const { return producer_.error(); }

  int file() const { return map_->file(); }
  uint64_t region_bytes() const { return map_->size(); }

 private:
  StreamHeaps(std::shared_ptr<shm::Mapping> map, size_t heap_bytes, int side);

  std::shared_ptr<shm::Mapping> map_;
  int side_;
  shm::HeapProducer producer_;
  std::span<const std::byte> incoming_;
};

}  // namespace wire::transport
