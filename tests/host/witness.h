// What the hostile stream tests share: a host with limits a test can reach,
// a witness guest that keeps rendering while another guest attacks, and an
// attacker's glGetError.
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "host/server.h"
#include "host_fixture.h"
#include "test_guest.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"
#include "wire/reader.h"

namespace hosttest {

inline host::HostOptions small_limits() {
  host::HostOptions o;
  o.limits.guest.max_total_bytes = 64u << 20;
  o.limits.guest.max_draw_vertices = 1u << 20;
  o.limits.max_batch_bytes = 1u << 20;
  o.limits.max_contexts = 4;
  return o;
}

// One host for every test of a suite (starting one for each test would take
// longer than the tests); `Suite` says how it is started:
// Suite::host_options() and Suite::kRingFile.
template <typename Suite>
class SharedHostTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { host_ = new RunningHost(Suite::host_options(), Suite::kRingFile); }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(host_->ok()) << host_->error(); }

  static inline RunningHost* host_ = nullptr;
};

// A guest at `address` with context 1 of `api` current on a 16x16 surface
// 1; null when the host refuses it.
inline std::unique_ptr<TestGuest> guest_with_context(const std::string& address, wire::Api api,
                                                     uint32_t major, uint32_t minor,
                                                     wire::Profile profile = wire::Profile::kNone) {
  auto g = TestGuest::connect(address);
  if (!g || !g->hello().ok() || g->create_context(1, api, major, minor, profile) != 0) return nullptr;
  g->create_surface(1, 16, 16);
  g->make_current(1, 1, 1);
  return g->send().ok() ? std::move(g) : nullptr;
}

// A guest_with_context (OpenGL ES 3.0) clearing to (red, 0, 1, 1).
inline std::unique_ptr<TestGuest> clearing_guest(const std::string& address, float red = 0.0f) {
  auto g = guest_with_context(address, wire::Api::kGles, 3, 0);
  if (!g) return nullptr;
  wire::encode_glClearColor(g->w(), red, 0.0f, 1.0f, 1.0f);
  if (!g->send().ok()) return nullptr;
  return g;
}

// The witness (a clearing_guest clearing to blue) renders frame `frame_id`
// and gets exactly what it drew.
inline void expect_witness_renders(TestGuest& witness, uint32_t frame_id) {
  constexpr GLbitfield kColorBufferBit = 0x4000;
  wire::encode_glClear(witness.w(), kColorBufferBit);
  witness.swap(1, frame_id);
  ASSERT_TRUE(witness.send().ok());
  ReceivedFrame f;
  ASSERT_TRUE(witness.wait_frame(&f));
  EXPECT_EQ(f.frame.frame_id, frame_id);
  EXPECT_EQ(f.argb(8, 8), 0xFF0000FFu);
  EXPECT_TRUE(witness.lost.empty());
}

// Builds: shaders `vertex` and `fragment` from these sources, compiled,
// and linked into `program` (guest-chosen names).
inline void build_program(wire::Writer& w, GLuint program, GLuint vertex, GLuint fragment,
                          const char* vertex_source, const char* fragment_source) {
  constexpr GLenum kVertexShader = 0x8B31, kFragmentShader = 0x8B30;
  for (GLuint shader : {vertex, fragment}) {
    size_t at = w.begin(static_cast<uint32_t>(wire::GlOp::glCreateShader));
    w.put<uint32_t>(shader == vertex ? kVertexShader : kFragmentShader);
    w.put<uint32_t>(shader);
    w.end(at);
    at = w.begin(static_cast<uint32_t>(wire::GlOp::glShaderSource));
    w.put<uint32_t>(shader);
    w.put<int32_t>(1);
    const char* text = shader == vertex ? vertex_source : fragment_source;
    w.put_data(text, std::strlen(text));
    w.end(at);
    wire::encode_glCompileShader(w, shader);
  }
  size_t at = w.begin(static_cast<uint32_t>(wire::GlOp::glCreateProgram));
  w.put<uint32_t>(program);
  w.end(at);
  wire::encode_glAttachShader(w, program, vertex);
  wire::encode_glAttachShader(w, program, fragment);
  wire::encode_glLinkProgram(w, program);
}

// `g`'s glGetError after what it built; ~0 when no answer came.
inline GLenum gl_error(TestGuest& g) {
  wire::encode_glGetError(g.w());
  auto reply = g.call();
  GLenum e = ~0u;
  if (reply && reply->size() == sizeof e) std::memcpy(&e, reply->data(), sizeof e);
  return e;
}

// Waits up to `seconds` for the host to have `n` live sessions.
inline bool wait_live_sessions(RunningHost& host, size_t n, int seconds = 10) {
  for (int i = 0; i < seconds * 100; ++i) {
    if (host.server().live_sessions() == n) return true;
    ::usleep(10000);
  }
  return false;
}

// What the host's live sessions hold against their memory limits.
inline uint64_t held_memory(RunningHost& host) {
  return host.server().stats_json()["memory_bytes"].get<uint64_t>();
}

// A suite of hostile streams. Each test starts with a witness guest alone on
// the host (clearing_guest, clearing to blue) and its attackers connected
// after it; when they are gone, the host must hold what it held for the
// witness alone and the witness must still render. A suite's attacker is
// `attacker_` (others it closes in close_attackers()); its host has
// small_limits() and no ring file unless it says otherwise.
template <typename Suite>
class AttackSuite : public SharedHostTest<Suite> {
 public:
  static host::HostOptions host_options() { return small_limits(); }
  static constexpr bool kRingFile = false;

 protected:
  using SharedHostTest<Suite>::host_;

  void SetUp() override {
    SharedHostTest<Suite>::SetUp();
    if (::testing::Test::HasFatalFailure()) return;
    ASSERT_TRUE(wait_live_sessions(*host_, 0)) << "the last test's guests are still served";
    witness_ = clearing_guest(host_->address());
    ASSERT_TRUE(witness_ && witness_->call().ok());
    ASSERT_TRUE(wait_live_sessions(*host_, 1));
    baseline_ = held_memory(*host_);
    set_up_attack();
  }

  // What a suite sets up once its witness renders alone: its attackers.
  virtual void set_up_attack() {}

  void TearDown() override {
    close_attackers();
    if (!witness_) return;
    EXPECT_TRUE(wait_live_sessions(*host_, 1)) << "an attacker's session outlived its guest";
    EXPECT_EQ(held_memory(*host_), baseline_) << "host memory back to the witness's alone";
    expect_witness_renders(*witness_, 99);
    witness_.reset();
  }

  virtual void close_attackers() { attacker_.reset(); }

  // The attacker: a clearing_guest clearing to red; with `desktop_gl`, an
  // OpenGL 3.0 compatibility context 2 is current on its surface instead.
  void connect_attacker(bool desktop_gl = false) {
    attacker_ = clearing_guest(host_->address(), 1.0f);
    ASSERT_TRUE(attacker_);
    if (!desktop_gl) return;
    ASSERT_EQ(attacker_->create_context(2, wire::Api::kGl, 3, 0, wire::Profile::kCompatibility), 0u);
    attacker_->make_current(2, 1, 1);
  }

  // Sends what the attacker built: its context `context` is lost at
  // `opcode`, and the witness still renders.
  void expect_attacker_lost(uint32_t context, uint32_t opcode) {
    ASSERT_TRUE(attacker_->send().ok());
    wire::ContextLost lost{};
    ASSERT_TRUE(attacker_->wait_lost(&lost));
    EXPECT_EQ(lost.context_id, context);
    EXPECT_EQ(lost.opcode, opcode);
    expect_witness_renders(*witness_, 1);
  }

  std::unique_ptr<TestGuest> witness_, attacker_;
  uint64_t baseline_ = 0;
};

// The Data of the reply to what `g` built; empty when no reply came.
inline std::vector<std::byte> reply_data(TestGuest& g) {
  auto reply = g.call();
  if (!reply) return {};
  wire::Reader r(*reply, 0);
  auto data = r.get_data();
  if (!data) return {};
  return {data->bytes.begin(), data->bytes.end()};
}

}  // namespace hosttest
