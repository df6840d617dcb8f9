// Hostile data arguments: every way a command's client memory can be named
// on the wire (inline bytes, a reference into the shared blob heap, an
// offset into a bound buffer) lying about what it holds. One attack per
// test, over a shared-memory ring so that heap references reach the host.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "witness.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"

namespace hosttest {
namespace {

using wire::Api;
using wire::DataKind;
using wire::GlOp;

constexpr GLenum kArrayBuffer = 0x8892, kStaticDraw = 0x88E4, kTexture2D = 0x0DE1;
constexpr GLenum kRgba = 0x1908, kUbyte = 0x1401;

class HostileDataTest : public AttackSuite<HostileDataTest> {
 public:
  static constexpr bool kRingFile = true;

 protected:
  void set_up_attack() override {
    attacker_ = guest_with_context(host_->ring_address(), Api::kGles, 3, 0);
    ASSERT_TRUE(attacker_);
    ASSERT_GE(attacker_->heap_to_host().size(), 8192u);
  }

  wire::Writer& w() { return attacker_->w(); }

  // A Data naming `length` bytes at `offset` of the shared blob heap.
  void put_heap(uint64_t offset, uint32_t length) {
    w().put(static_cast<uint32_t>(DataKind::kHeap));
    w().put(offset);
    w().put(length);
  }

  // glBufferSubData(GL_ARRAY_BUFFER, 0, size, data) into a 64-byte buffer;
  // `put_source` writes the data argument.
  template <typename PutSource>
  void buffer_sub_data(GLsizeiptr size, PutSource put_source) {
    GLuint buffer = 1;
    wire::encode_glGenBuffers(w(), 1, &buffer, sizeof buffer);
    wire::encode_glBindBuffer(w(), kArrayBuffer, buffer);
    wire::encode_glBufferData(w(), kArrayBuffer, 64, nullptr, kStaticDraw, 0);
    size_t at = w().begin(static_cast<uint32_t>(GlOp::glBufferSubData));
    w().put(kArrayBuffer);
    w().put(GLintptr{0});
    w().put(size);
    put_source();
    w().end(at);
  }

  // glGetUniformLocation(1, name) of a new program 1, with `name` as the
  // inline bytes.
  void uniform_location(const std::vector<char>& name) {
    size_t at = w().begin(static_cast<uint32_t>(GlOp::glCreateProgram));
    w().put(GLuint{1});
    w().end(at);
    at = w().begin(static_cast<uint32_t>(GlOp::glGetUniformLocation));
    w().put(GLuint{1});
    w().put_data(name.data(), name.size());
    w().end(at);
  }

  // glMultiDrawElements(GL_TRIANGLES, counts, GL_UNSIGNED_BYTE, ..., drawcount):
  // `put_parts` writes the indices of the parts.
  template <typename PutParts>
  void multi_draw(GLsizei drawcount, const std::vector<GLsizei>& counts, PutParts put_parts) {
    size_t at = w().begin(static_cast<uint32_t>(GlOp::glMultiDrawElements));
    w().put(GLenum{0x0004});
    w().put(kUbyte);
    w().put(drawcount);
    w().put_data(counts.data(), counts.size() * sizeof(GLsizei));
    w().put_data(nullptr, 0);
    put_parts();
    w().end(at);
  }

  // glObjectPtrLabel of the sync named `handle`, with `label` as the bytes.
  void sync_label(uint64_t handle, const std::vector<char>& label) {
    size_t at = w().begin(static_cast<uint32_t>(GlOp::glObjectPtrLabel));
    w().put(handle);
    w().put(uint32_t{1});
    w().put_data(label.data(), label.size());
    w().end(at);
  }

  // Sends what was built: the attacker's context is lost at `op`; the
  // witness still renders.
  void expect_lost_at(GlOp op) { expect_attacker_lost(1, static_cast<uint32_t>(op)); }

};

TEST_F(HostileDataTest, HeapReferencePastTheHeap) {
  const uint64_t heap = attacker_->heap_to_host().size();
  buffer_sub_data(64, [&] { put_heap(heap - 16, 64); });
  expect_lost_at(GlOp::glBufferSubData);
}

TEST_F(HostileDataTest, HeapReferenceWrappingAround) {
  buffer_sub_data(64, [&] { put_heap(std::numeric_limits<uint64_t>::max() - 15, 64); });
  expect_lost_at(GlOp::glBufferSubData);
}

TEST_F(HostileDataTest, HeapReferenceShorterThanTheSize) {
  buffer_sub_data(64, [&] { put_heap(0, 16); });
  expect_lost_at(GlOp::glBufferSubData);
}

TEST_F(HostileDataTest, InlineBytesShorterThanTheSize) {
  const std::vector<std::byte> bytes(16);
  buffer_sub_data(64, [&] { w().put_data(bytes.data(), bytes.size()); });
  expect_lost_at(GlOp::glBufferSubData);
}

TEST_F(HostileDataTest, InlineLengthPastTheCommand) {
  buffer_sub_data(64, [&] {
    w().put(static_cast<uint32_t>(DataKind::kInline));
    w().put(uint32_t{4096});  // the command ends long before
  });
  expect_lost_at(GlOp::glBufferSubData);
}

TEST_F(HostileDataTest, UnknownDataKind) {
  buffer_sub_data(64, [&] {
    w().put(uint32_t{7});
    w().put(uint64_t{0});
  });
  expect_lost_at(GlOp::glBufferSubData);
}

// Pixels from an offset into a pixel unpack buffer when none is bound:
// GL would take the offset as a host pointer.
TEST_F(HostileDataTest, BufferOffsetWithNoBufferBound) {
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glTexImage2D));
  for (int32_t v : {static_cast<int32_t>(kTexture2D), 0, static_cast<int32_t>(kRgba), 4, 4, 0}) w().put(v);
  w().put(kRgba);
  w().put(kUbyte);
  w().put_buffer_offset(0x10000);
  w().end(at);
  expect_lost_at(GlOp::glTexImage2D);
}

TEST_F(HostileDataTest, UnterminatedString) {
  uniform_location({'a', 'b', 'c', 'd'});
  expect_lost_at(GlOp::glGetUniformLocation);
}

TEST_F(HostileDataTest, UniformValuesShorterThanTheCount) {
  const float values[4] = {1, 2, 3, 4};
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glUniform4fv));
  w().put(GLint{0});
  w().put(GLsizei{100});  // 1600 bytes read
  w().put_data(values, sizeof values);
  w().end(at);
  expect_lost_at(GlOp::glUniform4fv);
}

// A vertex array at an offset into a buffer when none is bound: GL would
// take the offset as a host pointer at the next draw. The call is refused
// with a core context's error and the draw reads nothing of the host's.
TEST_F(HostileDataTest, ArrayOffsetWithNoBufferBound) {
  constexpr GLenum kFloat = 0x1406;
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glVertexAttribPointer));
  w().put(GLuint{0});
  w().put(GLint{4});
  w().put(kFloat);
  w().put(uint8_t{0});
  w().put(GLsizei{0});
  w().put(uint64_t{0});  // start: where the guest's array begins
  w().put_buffer_offset(0x100000);
  w().end(at);
  wire::encode_glEnableVertexAttribArray(w(), 0);
  wire::encode_glDrawArrays(w(), 0x0004, 0, 3);
  EXPECT_EQ(gl_error(*attacker_), 0x0502u);  // GL_INVALID_OPERATION
  EXPECT_TRUE(attacker_->lost.empty());
}

TEST_F(HostileDataTest, MultiDrawCountsShorterThanTheDrawCount) {
  const uint8_t indices[3] = {0, 1, 2};
  multi_draw(2, {3}, [&] {
    w().put_data(indices, sizeof indices);
    w().put_data(indices, sizeof indices);
  });
  expect_lost_at(GlOp::glMultiDrawElements);
}

TEST_F(HostileDataTest, MultiDrawIndicesShorterThanAPartsCount) {
  const uint8_t indices[3] = {0, 1, 2};
  multi_draw(2, {3, 300}, [&] {
    w().put_data(indices, sizeof indices);
    w().put_data(indices, sizeof indices);
  });
  expect_lost_at(GlOp::glMultiDrawElements);
}

// Offsets into an element buffer when none is bound: GL would take them as
// host pointers.
TEST_F(HostileDataTest, MultiDrawOffsetsWithNoElementBuffer) {
  multi_draw(2, {3, 3}, [&] {
    w().put_buffer_offset(0x10000);
    w().put_buffer_offset(0x20000);
  });
  expect_lost_at(GlOp::glMultiDrawElements);
}

// Client indices after an offset: the host would read the offset against
// the scratch buffer the client indices go to.
TEST_F(HostileDataTest, MultiDrawMixingOffsetsAndClientIndices) {
  const uint8_t indices[3] = {0, 1, 2};
  multi_draw(2, {3, 3}, [&] {
    w().put_buffer_offset(0);
    w().put_data(indices, sizeof indices);
  });
  expect_lost_at(GlOp::glMultiDrawElements);
}

// glObjectPtrLabel's label is bounded before the host copies it.
TEST_F(HostileDataTest, SyncLabelLongerThanAnyGlAllows) {
  constexpr GLenum kGpuCommandsComplete = 0x9117;
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glFenceSync));
  w().put(kGpuCommandsComplete);
  w().put(uint32_t{0});
  w().put(uint64_t{7});
  w().end(at);
  sync_label(7, std::vector<char>(70 * 1024, 'x'));
  expect_lost_at(GlOp::glObjectPtrLabel);
}

// A label on a handle that names no sync is GL's error, as for a pointer
// GL does not know; the context carries on.
TEST_F(HostileDataTest, SyncLabelOfAnUnknownHandle) {
  constexpr GLenum kInvalidValue = 0x0501;
  sync_label(0xdead, {'x'});
  EXPECT_EQ(gl_error(*attacker_), kInvalidValue);
  EXPECT_EQ(gl_error(*attacker_), 0u);
}

}  // namespace
}  // namespace hosttest
