// The capture file (docs/capture.md): a plain header, then one zstd stream
// of records, each a kind, a size and a checksum of its payload. Shared by
// the writer (a live session) and the reader (`conduit replay`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "wire/control.h"
#include "wire/format.h"

namespace host::capture {

constexpr char kMagic[8] = {'C', 'O', 'N', 'D', 'C', 'A', 'P', '\n'};
constexpr uint32_t kFormatVersion = 1;

// Uncompressed, at the start of the file: enough to refuse a capture of
// another protocol before anything is decompressed.
struct FileHeader {
  char magic[8];
  uint32_t format_version;
  uint32_t protocol_version;  // wire::kProtocolVersion of the host that wrote it
};

enum class RecordKind : uint32_t {
  kInfo = 1,     // JSON: versions, registry hashes, host features, renderer, transport
  kHeap = 2,     // u64 offset, then the bytes the next batch reads there from the guest's heap
  kBatch = 3,    // one framed batch (BatchHeader + payload) as the host received it
  kReply = 4,    // the reply payload the guest received for the batch before
  kFrame = 5,    // FrameRecord: a frame the guest received, by hash
  kToGuest = 6,  // u32 control op, then its payload: a lost context, signalled fences
  kEnd = 7,      // JSON: counts; its absence marks a capture cut short
};

struct RecordHeader {
  uint32_t kind;
  uint32_t size;      // payload bytes
  uint64_t checksum;  // XXH3 64 of the payload
};

struct FrameRecord {
  wire::Frame frame;
  uint32_t reserved;
  uint64_t hash;  // frame_hash() of its pixels
};

// The most a record may hold: the largest batch a session decodes is
// smaller, so anything above is corruption.
constexpr uint32_t kMaxRecordBytes = 1u << 30;

// A frame's identity: XXH3 64 of its visible bytes, row by row (a stride's
// padding is not part of the picture), with its size mixed in.
uint64_t frame_hash(const wire::Frame& frame, std::span<const std::byte> pixels);

uint64_t payload_checksum(std::span<const std::byte> payload);

}  // namespace host::capture
