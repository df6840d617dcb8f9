// Persistent mappings (EXT_buffer_storage in OpenGL ES 3) through the guest
// ICD against a real host: what the program writes reaches GL without an
// unmap or a flush, what GL writes shows after a fence or glFinish, and
// mappings made through one binding stay apart. Binding queries answer with
// the guest's names.
#include <cstring>
#include <vector>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

constexpr GLenum kCopyReadBuffer = 0x8F36, kCopyWriteBuffer = 0x8F37;
constexpr GLenum kArrayBufferBinding = 0x8894;
constexpr GLbitfield kPersistent = 0x0040, kCoherent = 0x0080, kDynamicStorage = 0x0100;
constexpr GLenum kSyncGpuCommandsComplete = 0x9117, kAlreadySignaled = 0x911A;
constexpr GLenum kConditionSatisfied = 0x911C;
constexpr GLsizeiptr kBytes = 4096;

class PersistentMapping : public GlState {
 protected:
  void SetUp() override { set_up_offering("GL_EXT_buffer_storage", "buffer storage"); }

  // A buffer of `bytes` immutable storage with `flags`, bound to `target`.
  GLuint storage(GLenum target, GLbitfield flags, const void* data = nullptr,
                 GLsizeiptr bytes = kBytes) {
    GLuint buffer = 0;
    gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
    gl<void (*)(GLenum, GLuint)>("glBindBuffer")(target, buffer);
    gl<void (*)(GLenum, GLsizeiptr, const void*, GLbitfield)>("glBufferStorageEXT")(target, bytes,
                                                                                     data, flags);
    return buffer;
  }
  uint8_t* map(GLenum target, GLbitfield access, GLsizeiptr bytes = kBytes) {
    return static_cast<uint8_t*>(gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>(
        "glMapBufferRange")(target, 0, bytes, access));
  }
  void copy(GLuint from, GLuint to, GLsizeiptr bytes = kBytes) {
    gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kCopyReadBuffer, from);
    gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kCopyWriteBuffer, to);
    gl<void (*)(GLenum, GLenum, GLintptr, GLintptr, GLsizeiptr)>("glCopyBufferSubData")(
        kCopyReadBuffer, kCopyWriteBuffer, 0, 0, bytes);
  }
  // What GL holds in `buffer`, read through a mapping of its own.
  std::vector<uint8_t> contents(GLuint buffer, GLsizeiptr bytes = kBytes) {
    gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kCopyReadBuffer, buffer);
    auto* p = map(kCopyReadBuffer, kMapRead, bytes);
    std::vector<uint8_t> out(p, p + (p ? bytes : 0));
    gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kCopyReadBuffer);
    return out;
  }
  GLenum get_error() { return gl<GLenum (*)()>("glGetError")(); }
};

// The program writes a coherent mapping and GL copies from it: no unmap,
// no flush. Then it changes a few bytes in the middle, and only those reach
// GL again (the rest of the buffer stays as GL changed it meanwhile).
TEST_F(PersistentMapping, CoherentWritesReachGlWithoutAFlush) {
  const GLbitfield flags = kMapWrite | kPersistent | kCoherent;
  GLuint source = storage(kArrayBuffer, flags);
  uint8_t* p = map(kArrayBuffer, flags);
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < kBytes; ++i) p[i] = static_cast<uint8_t>(i * 7);
  GLuint target = storage(kCopyWriteBuffer, kMapRead);
  copy(source, target);
  std::vector<uint8_t> expected(p, p + kBytes);
  EXPECT_EQ(contents(target), expected);

  std::memset(p + 1000, 0xEE, 24);
  copy(source, target);
  std::memset(expected.data() + 1000, 0xEE, 24);
  EXPECT_EQ(contents(target), expected);
  EXPECT_EQ(get_error(), 0u);
}

// GL copies into a persistently mapped buffer; the program sees the bytes
// once a fence signalled, then once glFinish returned. The mapping is made
// for writing only, as programs do, and read anyway, which works natively.
TEST_F(PersistentMapping, GlWritesShowAfterAFenceAndAfterFinish) {
  std::vector<uint8_t> first(kBytes), second(kBytes);
  for (int i = 0; i < kBytes; ++i) {
    first[i] = static_cast<uint8_t>(i * 5 + 1);
    second[i] = static_cast<uint8_t>(i * 11 + 3);
  }
  const GLbitfield flags = kMapWrite | kPersistent | kCoherent;
  GLuint mapped = storage(kArrayBuffer, flags);
  uint8_t* p = map(kArrayBuffer, flags);
  ASSERT_NE(p, nullptr);
  GLuint source = storage(kCopyReadBuffer, kDynamicStorage, first.data());
  copy(source, mapped);
  auto fence = gl<GLsync (*)(GLenum, GLbitfield)>("glFenceSync")(kSyncGpuCommandsComplete, 0);
  GLenum waited = gl<GLenum (*)(GLsync, GLbitfield, GLuint64)>("glClientWaitSync")(fence, 0, ~0ull);
  EXPECT_TRUE(waited == kAlreadySignaled || waited == kConditionSatisfied) << waited;
  EXPECT_EQ(std::memcmp(p, first.data(), kBytes), 0);

  gl<void (*)(GLenum, GLintptr, GLsizeiptr, const void*)>("glBufferSubData")(kCopyReadBuffer, 0,
                                                                              kBytes, second.data());
  copy(source, mapped);
  gl<void (*)()>("glFinish")();
  EXPECT_EQ(std::memcmp(p, second.data(), kBytes), 0);
  EXPECT_EQ(get_error(), 0u);
}

// A mapping larger than one piece of a map command (4 MiB) written whole:
// every piece arrives, and reads of it come back whole.
TEST_F(PersistentMapping, LargeMappingsTravelInPieces) {
  constexpr GLsizeiptr kLarge = (9 << 20) + 123;
  const GLbitfield flags = kMapWrite | kPersistent | kCoherent;
  GLuint source = storage(kArrayBuffer, flags, nullptr, kLarge);
  uint8_t* p = map(kArrayBuffer, flags, kLarge);
  ASSERT_NE(p, nullptr);
  for (GLsizeiptr i = 0; i < kLarge; ++i) p[i] = static_cast<uint8_t>(i * 31 + i / 4093);
  GLuint target = storage(kCopyWriteBuffer, kMapRead, nullptr, kLarge);
  copy(source, target, kLarge);
  EXPECT_TRUE(contents(target, kLarge) == std::vector<uint8_t>(p, p + kLarge));
  EXPECT_EQ(get_error(), 0u);
}

// Two buffers mapped persistently through the same binding, one after the
// other: both mappings stay, each writes its own buffer, and unmapping
// through the binding ends the mapping of the buffer bound there.
TEST_F(PersistentMapping, MappingsThroughOneBindingStayApart) {
  const GLbitfield flags = kMapWrite | kPersistent | kCoherent;
  GLuint a = storage(kArrayBuffer, flags);
  uint8_t* pa = map(kArrayBuffer, flags);
  GLuint b = storage(kArrayBuffer, flags);
  uint8_t* pb = map(kArrayBuffer, flags);
  ASSERT_NE(pa, nullptr);
  ASSERT_NE(pb, nullptr);
  ASSERT_NE(pa, pb);
  std::memset(pa, 0xA1, kBytes);
  std::memset(pb, 0xB2, kBytes);
  GLuint target = storage(kCopyWriteBuffer, kMapRead);
  copy(a, target);
  EXPECT_EQ(contents(target), std::vector<uint8_t>(kBytes, 0xA1));
  copy(b, target);
  EXPECT_EQ(contents(target), std::vector<uint8_t>(kBytes, 0xB2));

  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, a);
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kArrayBuffer));
  void* pointer = nullptr;
  gl<void (*)(GLenum, GLenum, void**)>("glGetBufferPointerv")(kArrayBuffer, 0x88BD, &pointer);
  EXPECT_EQ(pointer, nullptr) << "a's mapping ended";
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, b);
  gl<void (*)(GLenum, GLenum, void**)>("glGetBufferPointerv")(kArrayBuffer, 0x88BD, &pointer);
  EXPECT_EQ(pointer, pb) << "b's mapping stays";
  EXPECT_EQ(get_error(), 0u);
}

// A name the program binds without generating it (OpenGL ES 2.0 and 3.x
// allow it) has a different name on the host; the binding query answers
// with the program's.
TEST_F(PersistentMapping, BindingQueriesAnswerTheGuestsNames) {
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, 4321);
  GLint bound = 0;
  gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kArrayBufferBinding, &bound);
  EXPECT_EQ(bound, 4321);
}

}  // namespace
}  // namespace icd::egl
