// Write mappings flushed explicitly, through the guest ICD against a real
// host: what the program flushes reaches GL, and so do bytes it wrote but did
// not flush in a mapping that keeps the buffer's contents, as they do
// natively where the mapping is the buffer's own memory.
#include <cstring>
#include <vector>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

constexpr GLenum kCopyReadBuffer = 0x8F36;
constexpr GLenum kStaticDraw = 0x88E4;
constexpr GLbitfield kMapRead = 0x0001, kMapWrite = 0x0002, kFlushExplicit = 0x0010;
constexpr GLsizeiptr kBytes = 64;

using MapRange = void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield);

class FlushedMapping : public GlState {
 protected:
  GLuint buffer_with(const std::vector<uint8_t>& bytes) {
    GLuint buffer = 0;
    gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
    gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kCopyReadBuffer, buffer);
    gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(
        kCopyReadBuffer, static_cast<GLsizeiptr>(bytes.size()), bytes.data(), kStaticDraw);
    return buffer;
  }
  uint8_t* map(GLbitfield access) {
    return static_cast<uint8_t*>(gl<MapRange>("glMapBufferRange")(kCopyReadBuffer, 0, kBytes, access));
  }
  std::vector<uint8_t> contents() {
    const uint8_t* p = map(kMapRead);
    std::vector<uint8_t> out(p, p + (p ? kBytes : 0));
    gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kCopyReadBuffer);
    return out;
  }
};

TEST_F(FlushedMapping, FlushedAndUnflushedWritesReachGl) {
  std::vector<uint8_t> expected(kBytes, 0x11);
  buffer_with(expected);
  uint8_t* p = map(kMapWrite | kFlushExplicit);
  ASSERT_NE(p, nullptr);
  p[3] = 0xA3;   // flushed
  p[40] = 0xB4;  // written, never flushed
  gl<void (*)(GLenum, GLintptr, GLsizeiptr)>("glFlushMappedBufferRange")(kCopyReadBuffer, 3, 1);
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kCopyReadBuffer));
  expected[3] = 0xA3;
  expected[40] = 0xB4;
  EXPECT_EQ(contents(), expected);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A byte flushed, then written again without a flush: the last write lands.
TEST_F(FlushedMapping, AWriteAfterItsFlushLandsToo) {
  std::vector<uint8_t> expected(kBytes, 0x22);
  buffer_with(expected);
  uint8_t* p = map(kMapWrite | kFlushExplicit);
  ASSERT_NE(p, nullptr);
  p[8] = 0x01;
  gl<void (*)(GLenum, GLintptr, GLsizeiptr)>("glFlushMappedBufferRange")(kCopyReadBuffer, 8, 1);
  p[8] = 0x02;
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kCopyReadBuffer));
  expected[8] = 0x02;
  EXPECT_EQ(contents(), expected);
}

}  // namespace
}  // namespace icd::egl
