// Each renderer's private shader cache
// (host-renderer/src/supervisor/shader_cache.h): a folder of its own that its
// driver fills, that it may write and no other renderer may, removed when
// the renderer ends.
#include <dirent.h>
#include <ftw.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "host_fixture.h"
#include "renderer_guests.h"
#include "witness.h"

namespace hosttest {
namespace {

std::vector<std::string> entries(const std::string& folder) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(folder.c_str())) {
    while (dirent* e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
        out.emplace_back(e->d_name);
    }
    ::closedir(d);
  }
  return out;
}

// Regular files under `folder` whose names start with `prefix`, and those
// that are not the index Mesa makes with its cache (its entries).
size_t counted = 0;
std::string counted_prefix;
size_t files_under(const std::string& folder, const std::string& prefix) {
  counted = 0;
  counted_prefix = prefix;
  ::nftw(
      folder.c_str(),
      [](const char* path, const struct stat* st, int, FTW* at) {
        counted +=
            S_ISREG(st->st_mode) && std::string_view(path + at->base).starts_with(counted_prefix)
                ? 1
                : 0;
        return 0;
      },
      16, FTW_PHYS);
  return counted;
}
size_t cache_entries(const std::string& folder) {
  counted = 0;
  ::nftw(
      folder.c_str(),
      [](const char* path, const struct stat* st, int, FTW* at) {
        counted += S_ISREG(st->st_mode) && std::string_view(path + at->base) != "index" ? 1 : 0;
        return 0;
      },
      16, FTW_PHYS);
  return counted;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// `g`'s renderer tries to create a file in `folder` (its own cache folder
// when empty); its errno, or ~0 when no answer came.
uint32_t create_in(TestGuest& g, const std::string& folder) {
  size_t at = g.w().begin(static_cast<uint32_t>(wire::ControlOp::kTestFault));
  g.w().put(wire::TestFault{static_cast<uint32_t>(wire::Fault::kCreateIn), 0, 0});
  g.w().put_data(folder.data(), folder.size());
  g.w().end(at);
  auto reply = g.call();
  if (!reply || reply->size() != sizeof(uint32_t)) return ~0u;
  uint32_t v;
  std::memcpy(&v, reply->data(), sizeof v);
  return v;
}

class ShaderCache : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("CONDUIT_EXE")) GTEST_SKIP() << "CONDUIT_EXE not set";
    char tmpl[] = "/tmp/conduit-cache-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override {
    if (root_.empty()) return;
    EXPECT_TRUE(entries(root_).empty()) << "every renderer's folder went with it";
    ::nftw(
        root_.c_str(), [](const char* p, const struct stat*, int, FTW*) { return ::remove(p); }, 16,
        FTW_DEPTH | FTW_PHYS);
  }
  host::HostOptions options() {
    host::HostOptions o = isolated();
    o.renderer_cache = root_;
    return o;
  }
  std::string root_;
};

TEST_F(ShaderCache, EachRendererWritesOnlyInItsOwnFolder) {
  {
    RunningHost host(options());
    ASSERT_TRUE(host.ok()) << host.error();
    auto [a, b] = two_ready_guests(host.address());
    ASSERT_TRUE(a && b);
    ASSERT_EQ(create_in(*a, ""), 0u) << "its own folder";
    std::string mine;
    std::vector<std::string> others;
    for (const auto& name : entries(root_)) {
      (files_under(root_ + "/" + name, "conduit-fault-") > 0 ? mine : others.emplace_back()) =
          root_ + "/" + name;
    }
    ASSERT_FALSE(mine.empty());
    ASSERT_GE(others.size(), 1u) << "b's folder (and the next renderer's)";
    for (const auto& other : others) {
      EXPECT_EQ(create_in(*a, other), static_cast<uint32_t>(EACCES)) << other;
      EXPECT_EQ(files_under(other, "conduit-fault-"), 0u);
    }
    EXPECT_EQ(create_in(*a, root_), static_cast<uint32_t>(EACCES)) << "the folder of the folders";
    EXPECT_EQ(create_in(*a, "/tmp"), static_cast<uint32_t>(EACCES)) << "anywhere else";
    EXPECT_EQ(create_in(*b, ""), 0u);
    a.reset();
    for (int i = 0; i < 200 && exists(mine); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(exists(mine)) << "removed when its renderer ended";
    EXPECT_TRUE(renders(*b, 80, 1));
  }
}

// Mesa's own cache: a program compiled and drawn with leaves its shaders in
// the renderer's folder.
TEST_F(ShaderCache, TheDriverKeepsCompiledShadersThere) {
  RunningHost host(options());
  ASSERT_TRUE(host.ok()) << host.error();
  auto g = guest_with_context(host.address(), wire::Api::kGles, 3, 0);
  ASSERT_TRUE(g);
  // A source no earlier run compiled: a cache hit would write nothing.
  const std::string colour = std::to_string(::getpid() % 1000) + ".0 / 1000.0";
  const std::string fragment =
      "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(" + colour +
      ", 0.0, 1.0, 1.0); }\n";
  build_program(g->w(), 1, 2, 3,
                "#version 300 es\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n",
                fragment.c_str());
  wire::encode_glUseProgram(g->w(), 1);
  wire::encode_glDrawArrays(g->w(), 0 /* GL_POINTS */, 0, 1);
  ASSERT_EQ(gl_error(*g), 0u);
  size_t files = 0;
  for (int i = 0; i < 200 && files == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    files = cache_entries(root_);
  }
  EXPECT_GT(files, 0u) << "nothing cached under " << root_;
}

// Off: the drivers are told so (whatever the host's environment says),
// and no folder is made for anyone.
TEST_F(ShaderCache, OffTurnsTheDriversCachesOff) {
  // Set for as long as the host starts renderers (they copy the environment).
  struct Variable {
    explicit Variable(const std::string& value) { ::setenv("MESA_SHADER_CACHE_DIR", value.c_str(), 1); }
    ~Variable() { ::unsetenv("MESA_SHADER_CACHE_DIR"); }
  } variable(root_);
  host::HostOptions o = isolated();
  o.renderer_cache = "off";
  RunningHost host(o);
  ASSERT_TRUE(host.ok()) << host.error();
  auto g = ready_guest(host.address());
  ASSERT_TRUE(g);
  const nlohmann::json stats = host.server().stats_json();
  const int pid = stats["sessions"].at(0)["renderer_pid"].get<int>();
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ");
  std::vector<std::string> vars;
  for (std::string v; std::getline(in, v, '\0');) vars.push_back(v);
  if (vars.empty()) GTEST_SKIP() << "another process's environment is not readable here";
  EXPECT_NE(std::find(vars.begin(), vars.end(), "MESA_SHADER_CACHE_DISABLE=true"), vars.end());
  EXPECT_NE(std::find(vars.begin(), vars.end(), "__GL_SHADER_DISK_CACHE=0"), vars.end());
  for (const auto& v : vars) EXPECT_NE(v.rfind("MESA_SHADER_CACHE_DIR=", 0), 0u) << v;
  EXPECT_NE(create_in(*g, ""), 0u) << "it has no folder to write in";
  EXPECT_TRUE(entries(root_).empty());
  EXPECT_TRUE(renders(*g, 80, 1));
}

}  // namespace
}  // namespace hosttest
