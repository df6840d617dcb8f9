// The commands the host checks the ranges of are those vk-annotations.toml
// lists under [ranges], no more and no fewer: a command added to one list
// and not the other fails here.
#include <gtest/gtest.h>

#include "vk/resource_shapes.h"
#include "wire/vk_codec.h"

namespace {

TEST(VulkanRangesTable, TheAnnotationsAndTheChecksNameTheSameCommands) {
  size_t listed = 0;
  for (const wire::vk::CommandDesc* c : wire::vk::command_descs()) {
    EXPECT_EQ(c->ranges_checked, host::vk::ResourceShapes::checks(c->opcode)) << c->name;
    listed += c->ranges_checked;
  }
  EXPECT_GE(listed, 40u);
}

}  // namespace
