// The program cache between renderers: a second guest program's shaders
// and program come from what the first stored, and it is told what the
// first was told (compile status, compile log, link status).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "host_fixture.h"
#include "renderer_guests.h"
#include "wire/gl_encode.h"
#include "witness.h"

namespace hosttest {
namespace {

constexpr GLenum kCompileStatus = 0x8B81, kLinkStatus = 0x8B82;
constexpr GLuint kProgram = 40, kVertex = 41, kFragment = 42;

const char* const kVertexSource =
    "#version 100\nattribute vec4 p;\nvoid main() { gl_Position = p; }\n";
// Reads a local before writing it: Mesa compiles it with a warning.
const char* const kFragmentSource =
    "#version 100\nprecision mediump float;\nvoid main() { float v; gl_FragColor = vec4(v); }\n";

// The one value a glGet*iv call answers, or -1.
int32_t answered_value(TestGuest& g) {
  auto reply = g.call();
  if (!reply) return -1;
  wire::Reader r(*reply, 0);
  auto data = r.get_data();
  int32_t v = -1;
  if (data && data->bytes.size() == sizeof v) std::memcpy(&v, data->bytes.data(), sizeof v);
  return v;
}

int32_t shader_value(TestGuest& g, GLuint shader, GLenum pname) {
  wire::encode_glGetShaderiv(g.w(), shader, pname);
  return answered_value(g);
}

int32_t program_value(TestGuest& g, GLuint program, GLenum pname) {
  wire::encode_glGetProgramiv(g.w(), program, pname);
  return answered_value(g);
}

std::string shader_log(TestGuest& g, GLuint shader) {
  wire::encode_glGetShaderInfoLog(g.w(), shader, 4096);
  auto reply = g.call();
  if (!reply) return "(no answer)";
  wire::Reader r(*reply, 0);
  auto length = r.get_data();
  auto text = r.get_data();
  if (!length || !text || text->bytes.empty()) return "(bad answer)";
  return std::string(reinterpret_cast<const char*>(text->bytes.data()), text->bytes.size() - 1);
}

uint64_t total(RunningHost& host, const char* counter) { return host.server().stats_json()["total"].value(counter, uint64_t{0}); }

// Renderers publish their counters a few times a second.
bool wait_total(RunningHost& host, const char* counter, uint64_t at_least) {
  for (int i = 0; i < 500; ++i) {
    if (total(host, counter) >= at_least) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class ProgramCache : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("CONDUIT_EXE")) GTEST_SKIP() << "CONDUIT_EXE not set";
    folder_ = "/tmp/conduit-program-cache-test-" + std::to_string(::getpid());
    host::HostOptions o = isolated();
    o.program_cache = folder_;
    host_ = std::make_unique<RunningHost>(o);
    ASSERT_TRUE(host_->ok()) << host_->error();
  }
  void TearDown() override {
    host_.reset();
    std::filesystem::remove_all(folder_);
  }

  // A new guest program that has built the test's program (compiled,
  // attached, linked), or null when it could not reach the host.
  std::unique_ptr<TestGuest> guest_with_program() {
    auto guest = ready_guest(host_->address());
    if (guest) build_program(guest->w(), kProgram, kVertex, kFragment, kVertexSource, kFragmentSource);
    return guest;
  }

  std::string folder_;
  std::unique_ptr<RunningHost> host_;
};

TEST_F(ProgramCache, ASecondProgramIsToldWhatTheFirstWasWithoutCompiling) {
  std::string first_log;
  {
    auto first = guest_with_program();
    ASSERT_TRUE(first);
    EXPECT_EQ(shader_value(*first, kFragment, kCompileStatus), 1);
    first_log = shader_log(*first, kFragment);
    EXPECT_NE(first_log.find("warning"), std::string::npos) << first_log;
    EXPECT_EQ(program_value(*first, kProgram, kLinkStatus), 1);
  }
  ASSERT_TRUE(wait_total(*host_, "program_compiles", 1));
  EXPECT_EQ(total(*host_, "shader_compiles"), 2u);

  auto second = guest_with_program();
  ASSERT_TRUE(second);
  EXPECT_EQ(shader_value(*second, kFragment, kCompileStatus), 1);
  EXPECT_EQ(shader_log(*second, kFragment), first_log);
  EXPECT_EQ(program_value(*second, kProgram, kLinkStatus), 1);
  EXPECT_EQ(gl_error(*second), 0u);
  ASSERT_TRUE(wait_total(*host_, "program_cache_hits", 1));
  EXPECT_EQ(total(*host_, "program_compiles"), 1u);
  EXPECT_EQ(total(*host_, "shader_compiles"), 2u);
  EXPECT_EQ(total(*host_, "shader_cache_hits"), 2u);
}

TEST_F(ProgramCache, ASourceReplacedBeforeItsDeferredCompileIsCompiledAfresh) {
  {
    auto first = guest_with_program();
    ASSERT_TRUE(first);
    EXPECT_EQ(program_value(*first, kProgram, kLinkStatus), 1);
  }
  auto second = guest_with_program();
  ASSERT_TRUE(second);
  // The fragment shader's compile was deferred; a broken source replaces it.
  size_t at = second->w().begin(static_cast<uint32_t>(wire::GlOp::glShaderSource));
  second->w().put<uint32_t>(kFragment);
  second->w().put<int32_t>(1);
  const char* broken = "#version 100\nvoid main() { this is not glsl }\n";
  second->w().put_data(broken, std::strlen(broken));
  second->w().end(at);
  wire::encode_glCompileShader(second->w(), kFragment);
  EXPECT_EQ(shader_value(*second, kFragment, kCompileStatus), 0);
  wire::encode_glLinkProgram(second->w(), kProgram);
  EXPECT_EQ(program_value(*second, kProgram, kLinkStatus), 0);
}

}  // namespace
}  // namespace hosttest
