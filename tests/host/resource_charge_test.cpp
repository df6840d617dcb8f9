// What the guest's memory limit (--max-guest-memory) counts besides
// buffers, textures and surfaces: each is charged while it exists, given
// back when it goes, and refused like any other allocation over the limit.
#include "memory_fixture.h"
#include "wire/format.h"
#include "wire/gl_opcodes.h"

namespace hosttest {
namespace {


class ResourceChargeTest : public MemoryLimitTest {
 protected:
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

}  // namespace
}  // namespace hosttest
