// What the guest's memory limit (--max-guest-memory) counts besides
// buffers, textures and surfaces: each is charged while it exists, given
// back when it goes, and refused like any other allocation over the limit.
#include "memory_fixture.h"
#include "wire/format.h"
#include "wire/gl_opcodes.h"

namespace hosttest {
namespace {

constexpr GLenum kSyncGpuCommandsComplete = 0x9117;
constexpr uint64_t kSyncBytes = 256;
constexpr uint64_t kUnchargedBatchBytes = 1u << 20;  // host/session.h
constexpr GLenum kCompile = 0x1300;

class ResourceChargeTest : public MemoryLimitTest {
 protected:
  // glFenceSync as the guest ICD writes it: the guest names the sync.
  void fence(uint64_t handle) {
    size_t at = guest_->w().begin(static_cast<uint32_t>(wire::GlOp::glFenceSync));
    guest_->w().put(static_cast<uint32_t>(kSyncGpuCommandsComplete));
    guest_->w().put(uint32_t{0});
    guest_->w().put(handle);
    guest_->w().end(at);
  }
  void delete_sync(uint64_t handle) {
    size_t at = guest_->w().begin(static_cast<uint32_t>(wire::GlOp::glDeleteSync));
    guest_->w().put(handle);
    guest_->w().end(at);
  }
  // glReadPixels of RGBA bytes into client memory: the bytes sent back.
  std::vector<std::byte> read_pixels(int32_t width, int32_t height) {
    size_t at = guest_->w().begin(static_cast<uint32_t>(wire::GlOp::glReadPixels));
    for (int32_t v : {0, 0, width, height}) guest_->w().put(v);
    guest_->w().put(static_cast<uint32_t>(kRgba));
    guest_->w().put(static_cast<uint32_t>(kUnsignedByte));
    guest_->w().put_data(nullptr, 0);
    guest_->w().end(at);
    auto reply = guest_->call();
    if (!reply) return {};
    wire::Reader r(*reply, 0);
    auto data = r.get_data();
    if (!data) return {};
    return {data->bytes.begin(), data->bytes.end()};
  }
  // A batch of glFlush commands decompressing to about `bytes`.
  void send_flushes(uint64_t bytes) {
    for (uint64_t i = 0; i < bytes / sizeof(wire::CommandHeader); ++i) wire::encode_glFlush(guest_->w());
    ASSERT_TRUE(guest_->send().ok());
  }
  // Compiles `colors` glColor3f into display list `list`.
  void compile_list(GLuint list, int colors) {
    wire::encode_glNewList(guest_->w(), list, kCompile);
    for (int i = 0; i < colors; ++i) wire::encode_glColor3f(guest_->w(), 1.0f, 0.5f, 0.25f);
    wire::encode_glEndList(guest_->w());
  }
  // Fills the guest's memory with one buffer, leaving `room` bytes free.
  uint64_t fill_leaving(uint64_t room) {
    const uint64_t bytes = (kLimit - memory()) / 256 * 256 - room;
    gen_buffers(1, 1);
    buffer_data(1, bytes);
    EXPECT_EQ(get_error(), kNoError);
    return bytes;
  }
};

TEST_F(ResourceChargeTest, ContextsAreChargedUntilDestroyed) {
  ASSERT_EQ(guest_->create_context(2, Api::kGles, 3, 0), 0u);
  EXPECT_EQ(memory(), surfaces_ + kContextBytes);
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{2});
  EXPECT_EQ(memory(), surfaces_);

  // Refused like a context over --max-contexts, and nothing stays charged.
  const uint64_t buffer = fill_leaving(kContextBytes - 256);
  EXPECT_NE(guest_->create_context(3, Api::kGles, 3, 0), 0u);
  EXPECT_NE(guest_->create_context(3, Api::kGles, 3, 0, wire::Profile::kNone, 1), 0u);
  const uint64_t full = memory();
  delete_names(wire::encode_glDeleteBuffers, 1);
  EXPECT_EQ(guest_->create_context(3, Api::kGles, 3, 0), 0u);
  EXPECT_EQ(memory(), full - buffer + kContextBytes);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(ResourceChargeTest, SyncsAreChargedUntilDeleted) {
  // A context of its own, so that destroying it takes only the syncs.
  ASSERT_EQ(guest_->create_context(2, Api::kGles, 3, 0), 0u);
  guest_->make_current(2, 1, 1);
  const uint64_t before = memory();
  const uint64_t buffer = fill_leaving(3 * kSyncBytes);
  for (uint64_t h = 1; h <= 3; ++h) fence(h);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), before + buffer + 3 * kSyncBytes);
  fence(4);
  EXPECT_EQ(get_error(), kOutOfMemory);
  EXPECT_EQ(memory(), before + buffer + 3 * kSyncBytes);

  delete_sync(2);
  EXPECT_EQ(memory(), before + buffer + 2 * kSyncBytes);
  fence(4);
  EXPECT_EQ(get_error(), kNoError);
  delete_sync(5);  // never created (refused): nothing given back
  EXPECT_EQ(memory(), before + buffer + 3 * kSyncBytes);

  guest_->make_current(1, 1, 1);
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{2});
  EXPECT_EQ(memory(), surfaces_);  // its syncs and its buffer went with it
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(ResourceChargeTest, ReadBackRepliesFitTheGuestsMemory) {
  const uint64_t before = memory();
  fill_leaving(64 * kKiB);
  EXPECT_EQ(read_pixels(100, 100).size(), 100u * 100 * 4);  // 40000 bytes fit
  EXPECT_EQ(get_error(), kNoError);
  // 160000 bytes do not: nothing read back, and GL never ran it.
  EXPECT_TRUE(read_pixels(200, 200).empty());
  EXPECT_EQ(get_error(), kOutOfMemory);
  EXPECT_EQ(get_error(), kNoError);
  // The reply was charged only while its command ran.
  EXPECT_EQ(memory(), kLimit - 64 * kKiB);
  delete_names(wire::encode_glDeleteBuffers, 1);
  EXPECT_EQ(read_pixels(200, 200).size(), 200u * 200 * 4);
  EXPECT_EQ(memory(), before);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(ResourceChargeTest, LargeBatchesFitTheGuestsMemory) {
  fill_leaving(64 * kKiB);
  // Up to 1 MiB is always taken (a guest at its limit must still be able
  // to free memory); beyond that, only what the guest has left.
  send_flushes(kUnchargedBatchBytes + 32 * kKiB);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), kLimit - 64 * kKiB);
  EXPECT_TRUE(guest_->lost.empty());
  send_flushes(kUnchargedBatchBytes + 128 * kKiB);
  wire::ContextLost lost{};
  ASSERT_TRUE(guest_->wait_lost(&lost));
  EXPECT_EQ(lost.opcode, 0u) << "refused as a batch, like one over --max-batch";
}

TEST_F(ResourceChargeTest, DisplayListsAreChargedForWhatTheyHold) {
  ASSERT_EQ(guest_->create_context(2, Api::kGl, 2, 1), 0u);
  guest_->make_current(2, 1, 1);
  const uint64_t before = memory();
  compile_list(1, 1000);
  EXPECT_EQ(get_error(), kNoError);
  const uint64_t thousand = memory() - before;
  EXPECT_GE(thousand, 1000u * 3 * sizeof(float)) << "at least the arguments of each command";
  compile_list(1, 100);  // compiled again: the new list replaces the old
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory() - before, thousand / 10);
  compile_list(2, 1000);
  EXPECT_EQ(memory() - before, thousand / 10 + thousand);
  wire::encode_glDeleteLists(guest_->w(), 1, 2);
  EXPECT_EQ(memory(), before);

  // A list that does not fit is compiled no further.
  const uint64_t room = thousand / 2 / 256 * 256;
  fill_leaving(room);
  compile_list(3, 1000);
  EXPECT_EQ(get_error(), kOutOfMemory);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_LE(memory(), kLimit);
  EXPECT_GT(memory(), kLimit - room) << "what fitted is compiled";
  wire::encode_glDeleteLists(guest_->w(), 3, 1);
  EXPECT_EQ(memory(), kLimit - room);
  EXPECT_TRUE(guest_->lost.empty());
}

}  // namespace
}  // namespace hosttest
