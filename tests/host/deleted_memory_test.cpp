// A deleted buffer, texture or renderbuffer that something still refers to
// keeps its storage in GL, so it keeps counting against the guest's memory
// limit: a guest cannot go past --max-guest-memory by deleting objects that
// a vertex array, a framebuffer, a view or another context keeps alive.
// Once nothing refers to them, their bytes come back.
#include "memory_fixture.h"

namespace hosttest {
namespace {

constexpr GLenum kElementArrayBuffer = 0x8893, kTexture0 = 0x84C0;
constexpr GLenum kFramebuffer = 0x8D40, kColorAttachment0 = 0x8CE0;

class DeletedObjectTest : public MemoryLimitTest {
 protected:
  // A quarter of what the guest has left: five of them cannot all fit.
  uint64_t quarter() const { return (kLimit - surfaces_) / 4 / 256 * 256; }
  // A texture of about `bytes` (RGBA8) bound to GL_TEXTURE_2D.
  void texture_of(GLuint name, uint64_t bytes) {
    bind_texture(name);
    tex_image(kTexture2D, 0, side_for(bytes));
  }
  static GLsizei side_for(uint64_t bytes) {
    uint64_t side = 1;
    while ((side + 1) * (side + 1) * 4 <= bytes) ++side;
    return static_cast<GLsizei>(side);
  }
  // Allocates `rounds` objects with `make` and deletes each (what `make`
  // left referring to it stays); the number of rounds that fit.
  int rounds_that_fit(int rounds, const std::function<void(GLuint)>& make) {
    for (int i = 0; i < rounds; ++i) {
      make(static_cast<GLuint>(100 + i));
      if (get_error() == kOutOfMemory) return i;
      EXPECT_LE(memory(), kLimit);
    }
    return rounds;
  }
};

TEST_F(DeletedObjectTest, ABufferAVertexArrayStillUsesStaysCharged) {
  const int fit = rounds_that_fit(8, [&](GLuint i) {
    wire::encode_glGenVertexArrays(guest_->w(), 1, &i, sizeof i);
    wire::encode_glBindVertexArray(guest_->w(), i);
    gen_buffers(i, 1);
    wire::encode_glBindBuffer(guest_->w(), kElementArrayBuffer, i);
    wire::encode_glBufferData(guest_->w(), kElementArrayBuffer, static_cast<GLsizeiptr>(quarter()),
                              nullptr, kStreamDraw, 0);
    wire::encode_glBindVertexArray(guest_->w(), 0);
    delete_names(wire::encode_glDeleteBuffers, i);  // vertex array i keeps it
  });
  EXPECT_EQ(fit, 4);
  EXPECT_EQ(memory(), surfaces_ + 4 * quarter());
  // The vertex arrays go, and the buffers with them.
  for (GLuint i = 100; i < 104; ++i) delete_names(wire::encode_glDeleteVertexArrays, i);
  EXPECT_EQ(memory(), surfaces_);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(DeletedObjectTest, ATextureAFramebufferStillUsesStaysCharged) {
  const int fit = rounds_that_fit(8, [&](GLuint i) {
    texture_of(i, quarter());
    wire::encode_glGenFramebuffers(guest_->w(), 1, &i, sizeof i);
    wire::encode_glBindFramebuffer(guest_->w(), kFramebuffer, i);
    wire::encode_glFramebufferTexture2D(guest_->w(), kFramebuffer, kColorAttachment0, kTexture2D, i, 0);
    wire::encode_glBindFramebuffer(guest_->w(), kFramebuffer, 0);
    wire::encode_glBindTexture(guest_->w(), kTexture2D, 0);
    delete_names(wire::encode_glDeleteTextures, i);  // framebuffer i keeps it
  });
  EXPECT_EQ(fit, 4);
  for (GLuint i = 100; i < 104; ++i) delete_names(wire::encode_glDeleteFramebuffers, i);
  EXPECT_EQ(memory(), surfaces_);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(DeletedObjectTest, ATextureBoundInAnotherContextStaysCharged) {
  ASSERT_EQ(guest_->create_context(2, Api::kGles, 3, 0, wire::Profile::kNone, 1), 0u);
  surfaces_ = memory();  // the quarters are of what is left with context 2
  const int fit = rounds_that_fit(8, [&](GLuint i) {
    texture_of(i, quarter());
    // Context 2 binds it on a unit of its own; context 1 deletes it.
    guest_->make_current(2, 1, 1);
    wire::encode_glActiveTexture(guest_->w(), kTexture0 + (i - 100));
    wire::encode_glBindTexture(guest_->w(), kTexture2D, i);
    guest_->make_current(1, 1, 1);
    delete_names(wire::encode_glDeleteTextures, i);
  });
  EXPECT_EQ(fit, 4);
  guest_->make_current(2, 1, 1);
  for (GLuint unit = 0; unit < 4; ++unit) {
    wire::encode_glActiveTexture(guest_->w(), kTexture0 + unit);
    wire::encode_glBindTexture(guest_->w(), kTexture2D, 0);
  }
  EXPECT_EQ(memory(), surfaces_);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(DeletedObjectTest, ATextureAViewStillUsesStaysCharged) {
  // Texture views are desktop GL 4.3.
  guest_->make_current(0, 0, 0);
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{1});
  ASSERT_EQ(guest_->create_context(1, Api::kGl, 4, 3, wire::Profile::kCore), 0u);
  guest_->make_current(1, 1, 1);
  const GLsizei side = side_for(quarter());
  const int fit = rounds_that_fit(8, [&](GLuint i) {
    bind_texture(i);
    wire::encode_glTexStorage2D(guest_->w(), kTexture2D, 1, kRgba8, side, side);
    GLuint view = i + 100;
    wire::encode_glGenTextures(guest_->w(), 1, &view, sizeof view);
    wire::encode_glTextureView(guest_->w(), view, kTexture2D, i, kRgba8, 0, 1, 0, 1);
    delete_names(wire::encode_glDeleteTextures, i);  // the view keeps its storage
  });
  EXPECT_EQ(fit, 4);
  for (GLuint view = 200; view < 204; ++view) delete_names(wire::encode_glDeleteTextures, view);
  EXPECT_EQ(memory(), surfaces_);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(DeletedObjectTest, DeletingWhatNothingUsesNeverRunsOut) {
  // GL hands the same names out again; a store of half the room at a time,
  // a hundred times over, always fits once the deleted ones are freed.
  const uint64_t half = (kLimit - surfaces_) / 2 / 256 * 256;
  for (int i = 0; i < 100; ++i) {
    gen_buffers(1, 1);
    buffer_data(1, half);
    bind_texture(2);
    tex_image(kTexture2D, 0, side_for(half / 2));
    delete_names(wire::encode_glDeleteBuffers, 1);
    delete_names(wire::encode_glDeleteTextures, 2);
  }
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(DeletedObjectTest, ANewObjectUnderAReusedNameIsNotTheDeletedOne) {
  // Buffer 1 is deleted but kept by a vertex array; buffer 2, made right
  // after, may get the same host name from GL. Deleting 2 (used by nothing)
  // gives its bytes back while 1 stays charged.
  GLuint vao = 1;
  wire::encode_glGenVertexArrays(guest_->w(), 1, &vao, sizeof vao);
  wire::encode_glBindVertexArray(guest_->w(), vao);
  gen_buffers(1, 1);
  wire::encode_glBindBuffer(guest_->w(), kElementArrayBuffer, 1);
  wire::encode_glBufferData(guest_->w(), kElementArrayBuffer, static_cast<GLsizeiptr>(quarter()),
                            nullptr, kStreamDraw, 0);
  wire::encode_glBindVertexArray(guest_->w(), 0);
  delete_names(wire::encode_glDeleteBuffers, 1);
  for (int i = 0; i < 20; ++i) {
    gen_buffers(2, 1);
    buffer_data(2, quarter());
    delete_names(wire::encode_glDeleteBuffers, 2);
    EXPECT_EQ(memory(), surfaces_ + quarter()) << "round " << i;
  }
  delete_names(wire::encode_glDeleteVertexArrays, vao);
  EXPECT_EQ(memory(), surfaces_);
  EXPECT_EQ(get_error(), kNoError);
}

}  // namespace
}  // namespace hosttest
