// Hostile streams against pointers GL keeps and bytes in shared memory: GL
// may never be left holding a pointer into memory the host reuses, and heap
// bytes the host checks may not change before GL reads them. One attack per
// test; a witness guest keeps rendering correct frames throughout.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "host_fixture.h"
#include "test_guest.h"
#include "witness.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"

namespace hosttest {
namespace {

using wire::Api;
using wire::ControlOp;

constexpr GLenum kPoints = 0x0000, kDouble = 0x140A, kOutOfMemory = 0x0505;
constexpr GLenum kRender = 0x1C00, kFeedback = 0x1C01, kSelect = 0x1C02, k2D = 0x0600;
constexpr float kPointToken = 0x0701;

template <typename T>
std::vector<T> values_of(const std::vector<std::byte>& bytes, size_t at = 0) {
  std::vector<T> out(at < bytes.size() ? (bytes.size() - at) / sizeof(T) : 0);
  if (!out.empty()) std::memcpy(out.data(), bytes.data() + at, out.size() * sizeof(T));
  return out;
}

class HostilePointersTest : public AttackSuite<HostilePointersTest> {
 public:
  static constexpr bool kRingFile = true;

 protected:
  void set_up_attack() override { expect_witness_renders(*witness_, 1); }

  static std::unique_ptr<TestGuest> desktop_attacker() {
    return guest_with_context(host_->address(), Api::kGl, 2, 1);
  }

  // glRenderMode's reply: GL's answer, the mode it left, the words GL wrote.
  struct RenderModeReply {
    int32_t answer = -2;
    uint32_t left = 0;
    std::vector<std::byte> words;
  };
  static RenderModeReply render_mode(TestGuest& g, GLenum mode) {
    wire::encode_glRenderMode(g.w(), mode);
    auto reply = g.call();
    RenderModeReply out;
    if (!reply) return out;
    wire::Reader r(*reply, 0);
    auto answer = r.get<int32_t>();
    auto left = r.get<uint32_t>();
    auto words = r.get_data();
    if (!answer || !left || !words || r.remaining() != 0) return out;
    out = {*answer, *left, {words->bytes.begin(), words->bytes.end()}};
    return out;
  }

  // Runs what `g` built, then glRenderMode(GL_RENDER) leaves `mode`,
  // answering `records`; in `values`, what GL wrote as T.
  template <typename T>
  static void leave_render_mode(TestGuest& g, GLenum mode, int32_t records,
                                std::vector<T>* values) {
    ASSERT_TRUE(g.call().ok());
    const RenderModeReply r = render_mode(g, kRender);
    EXPECT_EQ(r.answer, records);
    EXPECT_EQ(r.left, mode);
    *values = values_of<T>(r.words);
  }
};

// The command as the registry describes it (a pointer of `size` bytes): on
// main, GL kept a pointer into the batch buffer and a draw read far past it.
TEST_F(HostilePointersTest, DoubleAttributePointerIntoTheBatch) {
  auto a = guest_with_context(host_->address(), Api::kGl, 4, 1, wire::Profile::kCompatibility);
  ASSERT_TRUE(a);
  const std::vector<std::byte> vertex(32, std::byte{0});
  size_t at = a->w().begin(static_cast<uint32_t>(wire::GlOp::glVertexAttribLPointer));
  a->w().put<uint32_t>(0);
  a->w().put<int32_t>(4);
  a->w().put<uint32_t>(kDouble);
  a->w().put<int32_t>(0);
  a->w().put_data(vertex.data(), vertex.size());
  a->w().end(at);
  wire::encode_glEnableVertexAttribArray(a->w(), 0);
  wire::encode_glDrawArrays(a->w(), kPoints, 0, 1 << 19);
  a->control(ControlOp::kSync);
  EXPECT_TRUE(a->call().ok()) << "the host answers";
}

// A client array of doubles goes through a host-only buffer like the other
// generic attributes: a draw reading past it reads nothing of the host's.
TEST_F(HostilePointersTest, DoubleAttributeClientArrayDrawnPastItsEnd) {
  auto a = guest_with_context(host_->address(), Api::kGl, 4, 1, wire::Profile::kCompatibility);
  ASSERT_TRUE(a);
  const std::vector<double> vertex = {0.0, 0.0, 0.0, 1.0};
  size_t at = a->w().begin(static_cast<uint32_t>(wire::GlOp::glVertexAttribLPointer));
  a->w().put<uint32_t>(0);
  a->w().put<int32_t>(4);
  a->w().put<uint32_t>(kDouble);
  a->w().put<int32_t>(0);
  a->w().put<uint64_t>(0);
  a->w().put_data(vertex.data(), vertex.size() * sizeof(double));
  a->w().end(at);
  wire::encode_glEnableVertexAttribArray(a->w(), 0);
  wire::encode_glDrawArrays(a->w(), kPoints, 0, 1 << 19);
  EXPECT_EQ(gl_error(*a), 0u);
  EXPECT_TRUE(a->lost.empty());
}

// An indirect multi-draw whose draw count is an offset into a parameter
// buffer that is not bound: GL would read the count at that host address.
// The draw is refused with a core context's error; nothing is lost.
TEST_F(HostilePointersTest, IndirectDrawCountWithoutAParameterBuffer) {
  constexpr GLenum kDrawIndirectBuffer = 0x8F3F, kStaticDraw = 0x88E4;
  auto a = guest_with_context(host_->address(), Api::kGl, 4, 5, wire::Profile::kCompatibility);
  ASSERT_TRUE(a);
  const std::vector<uint32_t> command = {3, 1, 0, 0};
  wire::encode_glBindBuffer(a->w(), kDrawIndirectBuffer, 5);
  wire::encode_glBufferData(a->w(), kDrawIndirectBuffer, 16, command.data(), kStaticDraw, 16);
  size_t at = a->w().begin(static_cast<uint32_t>(wire::GlOp::glMultiDrawArraysIndirectCount));
  a->w().put<uint32_t>(kPoints);
  a->w().put<uint64_t>(0);
  a->w().put<uint64_t>(0x7f0000100000);  // "offset" of the count
  a->w().put<int32_t>(1);
  a->w().put<int32_t>(0);
  a->w().end(at);
  EXPECT_EQ(gl_error(*a), 0x0502u);  // GL_INVALID_OPERATION
  EXPECT_TRUE(a->lost.empty());
  expect_witness_renders(*witness_, 1);
}

// AMD_pinned_memory makes the memory a glBufferData call points at the
// buffer's storage. On the host that is the command's scratch memory, reused
// by later commands: GL would read and write host memory through the
// buffer. The target is refused as GL refuses one it does not know.
TEST_F(HostilePointersTest, PinnedMemoryBufferNeverTakesHostMemory) {
  constexpr GLenum kExternalVirtualMemory = 0x9160, kStreamDraw = 0x88E0, kMapRead = 0x0001;
  auto a = guest_with_context(host_->address(), Api::kGl, 4, 5, wire::Profile::kCompatibility);
  ASSERT_TRUE(a);
  const std::vector<std::byte> memory(4096, std::byte{0x5a});
  wire::encode_glBindBuffer(a->w(), kExternalVirtualMemory, 7);
  wire::encode_glBufferData(a->w(), kExternalVirtualMemory, 4096, memory.data(), kStreamDraw, 4096);
  EXPECT_EQ(gl_error(*a), 0x0500u);  // GL_INVALID_ENUM
  wire::encode_glBufferStorage(a->w(), kExternalVirtualMemory, 4096, memory.data(), kMapRead, 4096);
  EXPECT_EQ(gl_error(*a), 0x0500u);
  EXPECT_TRUE(a->lost.empty());
  expect_witness_renders(*witness_, 1);
}

// On main GL wrote hit records into per-command scratch memory that later
// commands had reallocated; the records never reached the guest.
TEST_F(HostilePointersTest, SelectionBufferOutlivesLaterCommands) {
  auto a = desktop_attacker();
  ASSERT_TRUE(a);
  wire::encode_glSelectBuffer(a->w(), 64);
  for (int i = 0; i < 8; ++i) wire::encode_glGetIntegerv(a->w(), 0x0BA2);
  ASSERT_TRUE(a->call().ok());
  wire::encode_glRenderMode(a->w(), kSelect);
  wire::encode_glInitNames(a->w());
  wire::encode_glPushName(a->w(), 7);
  wire::encode_glRectf(a->w(), -0.5f, -0.5f, 0.5f, 0.5f);
  std::vector<uint32_t> words;
  ASSERT_NO_FATAL_FAILURE(leave_render_mode(*a, kSelect, 1, &words));
  ASSERT_EQ(words.size(), 4u) << "one hit: name count, depths, the name";
  EXPECT_EQ(words[0], 1u);
  EXPECT_EQ(words[3], 7u);
}

TEST_F(HostilePointersTest, FeedbackBufferOutlivesLaterCommands) {
  auto a = desktop_attacker();
  ASSERT_TRUE(a);
  wire::encode_glFeedbackBuffer(a->w(), 64, k2D);
  for (int i = 0; i < 8; ++i) wire::encode_glGetIntegerv(a->w(), 0x0BA2);
  ASSERT_TRUE(a->call().ok());
  wire::encode_glRenderMode(a->w(), kFeedback);
  wire::encode_glBegin(a->w(), kPoints);
  wire::encode_glVertex2f(a->w(), 0.0f, 0.0f);
  wire::encode_glEnd(a->w());
  std::vector<float> values;
  ASSERT_NO_FATAL_FAILURE(leave_render_mode(*a, kFeedback, 3, &values));
  ASSERT_EQ(values.size(), 3u) << "a point token and its window coordinates";
  EXPECT_EQ(values[0], kPointToken);
  EXPECT_EQ(values[1], 8.0f);
  EXPECT_EQ(values[2], 8.0f);
}

// A buffer GL keeps is guest memory like any other: above the guest's
// limit the answer is GL_OUT_OF_MEMORY, nothing allocated.
TEST_F(HostilePointersTest, SelectionBufferBeyondTheGuestMemory) {
  auto a = desktop_attacker();
  ASSERT_TRUE(a);
  wire::encode_glSelectBuffer(a->w(), 1 << 25);  // 128 MiB of a 64 MiB limit
  EXPECT_EQ(gl_error(*a), kOutOfMemory);
  EXPECT_TRUE(a->lost.empty());
}

// A NUL-terminated string in the shared heap whose terminator the guest
// keeps changing: the host checks the copy GL reads, so GL only ever sees
// the name the host checked ("u"), never "ux" that lies past the reference.
TEST_F(HostilePointersTest, HeapStringChangedAfterItWasChecked) {
  auto a = guest_with_context(host_->ring_address(), Api::kGles, 3, 0);
  ASSERT_TRUE(a);
  ASSERT_GE(a->heap_to_host().size(), 8192u);
  constexpr GLuint kProgram = 1, kVertex = 2, kFragment = 3;
  const char* sources[] = {
      "#version 300 es\nuniform float u;\nuniform float ux;\n"
      "void main() { gl_Position = vec4(u, ux, 0.0, 1.0); }\n",
      "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"};
  build_program(a->w(), kProgram, kVertex, kFragment, sources[0], sources[1]);
  wire::encode_glGetUniformLocation(a->w(), kProgram, "u");
  wire::encode_glGetUniformLocation(a->w(), kProgram, "ux");
  auto locations = a->call();
  ASSERT_TRUE(locations.ok());
  const auto both = values_of<GLint>(*locations);
  ASSERT_EQ(both.size(), 2u);
  ASSERT_TRUE(both[0] >= 0 && both[1] >= 0 && both[0] != both[1]);

  // "u", its terminator (flipped with 'x'), and a NUL past the reference.
  constexpr size_t kString = 4096;
  auto heap = a->heap_to_host();
  std::memcpy(heap.data() + kString, "u\0\0", 3);
  std::atomic<bool> stop{false};
  std::thread flipper([&] {
    auto* flip = reinterpret_cast<volatile char*>(heap.data() + kString + 1);
    while (!stop.load(std::memory_order_relaxed)) {
      *flip = 'x';
      *flip = '\0';
    }
  });
  size_t unchecked = 0;
  // A context that saw "ux" unterminated is lost; the next one shares the program.
  for (uint32_t ctx = 2; ctx < 102 && unchecked == 0; ++ctx) {
    ASSERT_EQ(a->create_context(ctx, Api::kGles, 3, 0, wire::Profile::kNone, 1), 0u);
    a->make_current(ctx, 1, 1);
    for (int i = 0; i < 200; ++i) {
      const size_t at = a->w().begin(static_cast<uint32_t>(wire::GlOp::glGetUniformLocation));
      a->w().put<uint32_t>(kProgram);
      a->w().put(static_cast<uint32_t>(wire::DataKind::kHeap));
      a->w().put<uint64_t>(kString);
      a->w().put<uint32_t>(2);
      a->w().end(at);
    }
    auto answers = a->call();
    ASSERT_TRUE(answers.ok());
    for (GLint location : values_of<GLint>(*answers)) unchecked += location != both[0];
    a->make_current(0, 0, 0);
    a->control(ControlOp::kDestroyContext, ctx);
    a->lost.clear();
  }
  stop = true;
  flipper.join();
  EXPECT_EQ(unchecked, 0u) << "GL read a name the host did not check";
  a->make_current(1, 1, 1);
  EXPECT_EQ(gl_error(*a), 0u) << "the host still serves the attacker's first context";
}

// What GL writes there comes back in glRenderMode's one reply, which holds
// at most 256 MiB: a larger buffer is GL_OUT_OF_MEMORY even for a guest
// whose memory would hold it. A host of its own with the default limits
// (512 MiB objects, 2 GiB in all), run when no other host is.
TEST(HostileKeptBuffers, FeedbackBufferBeyondOneReply) {
  RunningHost roomy;
  ASSERT_TRUE(roomy.ok()) << roomy.error();
  auto a = TestGuest::connect(roomy.address());
  ASSERT_TRUE(a && a->hello().ok());
  ASSERT_EQ(a->create_context(1, Api::kGl, 2, 1), 0u);
  a->create_surface(1, 16, 16);
  a->make_current(1, 1, 1);
  wire::encode_glFeedbackBuffer(a->w(), (256 << 20) / 4 + 1, k2D);
  EXPECT_EQ(gl_error(*a), kOutOfMemory);
  EXPECT_TRUE(a->lost.empty());
}

}  // namespace
}  // namespace hosttest
