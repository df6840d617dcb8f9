// Helpers for the hand-written guest entry points.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>

#include "gl/gl_state.h"
#include "icd/stream.h"
#include "wire/gl_opcodes.h"
#include "wire/reader.h"

namespace icd {

// A pointer argument that stands for an offset into a bound buffer
// (indices, indirect commands).
inline uint64_t offset_of(const void* pointer) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)); }

// Whether the context offers extension `name` to the program (query_entry.cpp).
bool offers_extension(Stream& s, const char* name);

// Starts a hand-written command; pair with `finish`.
inline size_t begin(Stream& s, wire::GlOp op) {
  return s.writer().begin(static_cast<uint32_t>(op));
}

// Ends the command and lets the stream flush when its batch is large.
inline void finish(Stream& s, size_t start) {
  s.writer().end(start);
  s.commit();
}

// Copies reply bytes into caller memory (at most `capacity` bytes); returns
// the bytes the host sent.
inline size_t copy_data(const wire::Data& data, void* dst, size_t capacity) {
  const size_t n = data.bytes.size() < capacity ? data.bytes.size() : capacity;
  if (dst && n) std::memcpy(dst, data.bytes.data(), n);
  return data.bytes.size();
}

// The same for a reply Data read from `r`.
inline size_t copy_reply(wire::Reader& r, void* dst, size_t capacity) {
  auto data = r.get_data();
  return data ? copy_data(*data, dst, capacity) : 0;
}

// Waits for the reply of the command just encoded and decodes it with its
// generated decoder (wire/gl_replies.h); false when none came (the host
// gone) or it is short or malformed: the caller then writes nothing into the
// program's memory.
template <typename Reply>
bool await_reply(Stream& s, Reply& out, wire::Status (*decode)(wire::Reader&, Reply&)) {
  auto reply = s.roundtrip();
  if (!reply) return false;
  wire::Reader r(*reply, 0);
  return decode(r, out).ok();
}

// What a read-back command names for the program's `pixels`: the offset
// into the bound pack buffer they stand for, or null, and the host replies
// with the image.
struct PackTarget {
  const void* data;
  bool in_buffer;
};
inline PackTarget pack_target(Stream& s, void* pixels) {
  const bool in_buffer = s.gl_state().pack_buffer_bound();
  return {in_buffer ? pixels : nullptr, in_buffer};
}

// Ends a read-back whose command was encoded with pack_target(): into the
// pack buffer (no wait), or a round trip whose pixels are copied to the
// program's memory, at most `capacity` bytes.
void finish_read_back(Stream& s, void* pixels, size_t capacity);
// finish_read_back of an image the guest knows the size of: only the rows GL
// writes under the pack state are copied, so skipped pixels, rows and images
// keep what the program had there (reading tiles into one buffer). `dims`
// 0: the host's reply says how many dimensions the image has.
void finish_image_read_back(Stream& s, void* pixels, size_t capacity, int dims,
                            GLenum format, GLenum type, int64_t width, int64_t height, int64_t depth);
// The same for a compressed region (glGetCompressedTextureSubImage), whose
// reply starts with the image's dimensions: only the rows of blocks GL
// writes under the pack state's block layout reach `pixels`.
void finish_compressed_read_back(Stream& s, void* pixels, size_t capacity, int64_t width, int64_t height,
                                 int64_t depth);

}  // namespace icd
