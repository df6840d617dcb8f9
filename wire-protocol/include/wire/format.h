// The byte layout of the command stream. docs/wire-format.md explains it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wire {

constexpr uint32_t kBatchMagic = 0x31544443;  // "CDT1" little-endian
constexpr uint16_t kProtocolVersion = 1;
constexpr size_t kAlign = 4;

enum BatchFlags : uint16_t {
  kBatchCompressed = 1u << 0,  // payload is one zstd stream frame chunk
  kBatchWantsReply = 1u << 1,  // the sender waits for a reply after this batch
};

// Every batch starts with this header. Sizes exclude the header itself.
struct BatchHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t flags;
  uint32_t raw_size;   // bytes of commands after decompression
  uint32_t wire_size;  // bytes that follow the header on the wire
};
static_assert(sizeof(BatchHeader) == 16);

// Every command starts with this header; size counts the header and padding
// and is a multiple of kAlign, so a decoder can bound-check and skip.
struct CommandHeader {
  uint32_t opcode;
  uint32_t size;
};
static_assert(sizeof(CommandHeader) == 8);

// How a pointer argument's bytes travel.
enum class DataKind : uint32_t {
  kNull = 0,          // NULL pointer
  kInline = 1,        // u32 length, bytes, padding
  kHeap = 2,          // u64 offset, u32 length into the shared blob heap
  kBufferOffset = 3,  // u64 offset into the buffer object bound for it
};

constexpr size_t align_up(size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

// Where a scalar of `size` bytes starts at or after `at`: aligned to
// min(size, kAlign), the rule every reader and writer of scalars follows.
constexpr size_t scalar_at(size_t at, size_t size) {
  const size_t a = size < kAlign ? size : kAlign;
  return (at + a - 1) & ~(a - 1);
}

// One stable opcode table in ranges: below kFirstGlOpcode Conduit's own
// (control and replies); then GL (wire-protocol/gl-opcodes.txt); from
// kFirstVkOpcode Vulkan (wire-protocol/vk-opcodes.txt). Each is append-only.
constexpr uint32_t kFirstGlOpcode = 1024;
constexpr uint32_t kFirstVkOpcode = 65536;

enum class OpcodeRange { kControl, kGl, kVulkan };

constexpr OpcodeRange range_of(uint32_t opcode) {
  return opcode < kFirstGlOpcode   ? OpcodeRange::kControl
         : opcode < kFirstVkOpcode ? OpcodeRange::kGl
                                   : OpcodeRange::kVulkan;
}

}  // namespace wire
