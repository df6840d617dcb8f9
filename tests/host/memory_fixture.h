// A guest with a small memory limit on a real host (--max-guest-memory
// 1 MiB), and helpers to allocate and look at what the host charges it.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host_fixture.h"
#include "test_guest.h"
#include "wire/gl_encode.h"
#include "wire/reader.h"

namespace hosttest {

using wire::Api;
using wire::ControlOp;

constexpr GLenum kNoError = 0;
constexpr GLenum kInvalidValue = 0x0501;
constexpr GLenum kOutOfMemory = 0x0505;
constexpr GLenum kArrayBuffer = 0x8892;
constexpr GLenum kStreamDraw = 0x88E0;
constexpr GLenum kBufferSize = 0x8764;
constexpr GLenum kTexture2D = 0x0DE1;
constexpr GLenum kTexture3D = 0x806F;
constexpr GLenum kCubeMap = 0x8513;
constexpr GLenum kCubeMapPositiveX = 0x8515;
constexpr GLenum kRgba = 0x1908;
constexpr GLenum kRgba8 = 0x8058;
constexpr GLenum kUnsignedByte = 0x1401;
constexpr GLenum kRenderbuffer = 0x8D41;

constexpr uint64_t kLimit = 1u << 20;
constexpr uint64_t kKiB = 1024;
constexpr uint64_t kContextBytes = 256 * kKiB;  // host/guest_context.h

inline host::HostOptions small_memory() {
  host::HostOptions o;
  o.limits.guest.max_total_bytes = kLimit;
  return o;
}

class MemoryLimitTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { host_ = new RunningHost(small_memory()); }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }

  void SetUp() override {
    ASSERT_TRUE(host_->ok()) << host_->error();
    guest_ = connect_ready();
    ASSERT_TRUE(guest_);
    surfaces_ = memory();
    ASSERT_GT(surfaces_, kContextBytes) << "the context and the surface are charged";
    ASSERT_LT(surfaces_, kLimit / 2);
  }

  // A guest with a GLES 3 context 1 current on a 16x16 surface 1.
  static std::unique_ptr<TestGuest> connect_ready() {
    auto g = TestGuest::connect(host_->address());
    if (!g || !g->hello().ok() || g->create_context(1, Api::kGles, 3, 0) != 0) return nullptr;
    g->create_surface(1, 16, 16);
    g->make_current(1, 1, 1);
    return g;
  }

  GLenum get_error() {
    wire::encode_glGetError(guest_->w());
    auto reply = guest_->call();
    if (!reply || reply->size() != sizeof(GLenum)) return ~0u;
    GLenum e = 0;
    std::memcpy(&e, reply->data(), sizeof e);
    return e;
  }

  static nlohmann::json stats(TestGuest& g) {
    g.control(ControlOp::kGetStats);
    auto reply = g.call();
    if (!reply) return {};
    return nlohmann::json::parse(std::string(reinterpret_cast<const char*>(reply->data()), reply->size()));
  }

  // What the host charges this guest now (its session's memory_bytes).
  uint64_t memory() {
    auto j = stats(*guest_);
    for (const auto& s : j["sessions"]) {
      if (s["id"] == j["session"]) return s["memory_bytes"].get<uint64_t>();
    }
    return ~uint64_t{0};
  }

  // GL_BUFFER_SIZE of the buffer bound to GL_ARRAY_BUFFER, as the host sees it.
  int32_t bound_buffer_size() {
    wire::encode_glGetBufferParameteriv(guest_->w(), kArrayBuffer, kBufferSize);
    auto reply = guest_->call();
    if (!reply) return -1;
    wire::Reader r(*reply, 0);
    auto d = r.get_data();
    if (!d || d->bytes.size() < 4) return -1;
    int32_t v = 0;
    std::memcpy(&v, d->bytes.data(), sizeof v);
    return v;
  }

  void gen_buffers(GLuint first, GLuint count) {
    std::vector<GLuint> names(count);
    for (GLuint i = 0; i < count; ++i) names[i] = first + i;
    wire::encode_glGenBuffers(guest_->w(), static_cast<GLsizei>(count), names.data(),
                              names.size() * sizeof(GLuint));
  }
  void buffer_data(GLuint buffer, uint64_t bytes) {
    wire::encode_glBindBuffer(guest_->w(), kArrayBuffer, buffer);
    wire::encode_glBufferData(guest_->w(), kArrayBuffer, static_cast<GLsizeiptr>(bytes), nullptr,
                              kStreamDraw, 0);
  }
  void delete_names(void (*del)(wire::Writer&, GLsizei, const GLuint*, size_t), GLuint name) {
    del(guest_->w(), 1, &name, sizeof name);
  }
  // A texture `name` bound to GL_TEXTURE_2D (or `target`).
  void bind_texture(GLuint name, GLenum target = kTexture2D) {
    wire::encode_glGenTextures(guest_->w(), 1, &name, sizeof name);
    wire::encode_glBindTexture(guest_->w(), target, name);
  }
  void tex_image(GLenum target, GLint level, GLsizei side) {
    wire::encode_glTexImage2D(guest_->w(), target, level, static_cast<GLint>(kRgba), side, side, 0,
                              kRgba, kUnsignedByte, nullptr, 0, false);
  }

  static RunningHost* host_;
  std::unique_ptr<TestGuest> guest_;
  uint64_t surfaces_ = 0;  // what the guest holds before any GL allocation (context 1 included)
};
inline RunningHost* MemoryLimitTest::host_ = nullptr;

}  // namespace hosttest
