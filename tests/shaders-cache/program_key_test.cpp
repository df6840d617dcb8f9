#include "shaders_cache/program_key.h"

#include <gtest/gtest.h>

#include "shaders_cache/cache_scope.h"
#include "shaders_cache/content_hash.h"

namespace shaders_cache {
namespace {

HostIdentity llvmpipe() { return {"Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)", "OpenGL ES 3.2 Mesa 22.3.6", "1.0", true}; }

ProgramInputs program() {
  ProgramInputs p;
  p.shaders = {{0x8B31, "void main() { gl_Position = vec4(0); }"}, {0x8B30, "void main() {}"}};
  p.attribute_bindings = {{"position", 0}};
  return p;
}

TEST(ProgramKeyTest, EveryInputChangesTheKey) {
  const std::string base = program_key(llvmpipe(), program());
  EXPECT_TRUE(is_content_key(base));
  EXPECT_EQ(base, program_key(llvmpipe(), program()));

  auto other_host = llvmpipe();
  other_host.renderer = "softpipe";
  EXPECT_NE(program_key(other_host, program()), base);
  other_host = llvmpipe();
  other_host.version = "OpenGL ES 3.2 Mesa 23.0.0";
  EXPECT_NE(program_key(other_host, program()), base);
  other_host = llvmpipe();
  other_host.gles = false;
  EXPECT_NE(program_key(other_host, program()), base);

  auto p = program();
  p.shaders[1].source += " ";
  EXPECT_NE(program_key(llvmpipe(), p), base);
  p = program();
  std::swap(p.shaders[0].type, p.shaders[1].type);
  EXPECT_NE(program_key(llvmpipe(), p), base);
  p = program();
  p.attribute_bindings["position"] = 1;
  EXPECT_NE(program_key(llvmpipe(), p), base);
  p = program();
  p.frag_data_bindings["color"] = {0, 0};
  EXPECT_NE(program_key(llvmpipe(), p), base);
  p = program();
  p.feedback_varyings = {"out0"};
  EXPECT_NE(program_key(llvmpipe(), p), base);
  p = program();
  p.separable = true;
  EXPECT_NE(program_key(llvmpipe(), p), base);
  EXPECT_NE(shader_key(llvmpipe(), program().shaders[0]), base);
}

TEST(ProgramKeyTest, PiecesCannotRunIntoEachOther) {
  auto a = program(), b = program();
  a.shaders = {{0x8B31, "ab"}, {0x8B30, "c"}};
  b.shaders = {{0x8B31, "a"}, {0x8B30, "bc"}};
  EXPECT_NE(program_key(llvmpipe(), a), program_key(llvmpipe(), b));
}

TEST(CacheScopeTest, GuestsGetFoldersOfTheirOwn) {
  EXPECT_EQ(scope_folder("/c", CacheScope::kHost, "uid 1"), "/c/programs/host");
  EXPECT_EQ(scope_folder("/c", CacheScope::kHost, "uid 1"), scope_folder("/c", CacheScope::kHost, "uid 2"));
  EXPECT_NE(scope_folder("/c", CacheScope::kGuest, "uid 1"), scope_folder("/c", CacheScope::kGuest, "uid 2"));
  EXPECT_EQ(scope_folder("/c", CacheScope::kGuest, "../../x").find(".."), std::string::npos);
}

}  // namespace
}  // namespace shaders_cache
