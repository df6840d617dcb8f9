// Runs every committed fuzz input through a host session, in every build (the
// ASan+UBSan one included): seeds recorded from real programs must run
// without losing a context, so the fuzzers start from streams that reach
// the driver; crash inputs must leave the host standing, refused or, where
// they were valid use, run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "fuzz_session.h"
#include "host/egl_display.h"
#include "host/replay.h"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_in(const std::string& subdir) {
  std::vector<fs::path> out;
  fs::path dir = fs::path(FUZZ_SEEDS_DIR) / subdir;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(e.path());
  }
  return out;
}

std::vector<uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every seed under `subdir`, through `run` (run_stream or run_vk_stream),
// runs more than `least` commands without losing a context.
void expect_seeds_run(const std::string& subdir,
                      fuzz::StreamOutcome (*run)(std::span<const uint8_t>), uint64_t least) {
  auto seeds = inputs_in(subdir);
  ASSERT_FALSE(seeds.empty()) << "no seeds under " << FUZZ_SEEDS_DIR;
  for (const auto& path : seeds) {
    auto outcome = run(read_file(path));
    EXPECT_GT(outcome.commands, least) << path;
    EXPECT_EQ(outcome.contexts_lost, 0u) << path;
  }
}

TEST(FuzzReplay, RecordedSeedsReachTheDriverWithoutLosingAContext) {
  expect_seeds_run("session", fuzz::run_stream, 10);
}

// The Vulkan target's prelude and epilogue alone: every object made, the
// empty command buffer submitted and waited for, nothing refused.
TEST(FuzzReplay, VulkanPreludeRunsWithoutLosingTheDevice) {
  auto outcome = fuzz::run_vk_stream({});
  EXPECT_GT(outcome.commands, 30u);
  EXPECT_EQ(outcome.contexts_lost, 0u);
}

TEST(FuzzReplay, VulkanSeedsPassTheHostsChecks) {
  expect_seeds_run("vk-session", fuzz::run_vk_stream, 30);
}

// Crash inputs of valid use, whose fix was to run them (the host, not the
// program, lacked what they call): vk_seeds.cpp writes them.
const std::set<std::string> kVulkanCrashInputsThatRun = {"newer-core-command-of-an-older-instance.bin"};

TEST(FuzzReplay, VulkanCrashInputsAreRefused) {
  for (const auto& path : inputs_in("vk-session-crashes")) {
    if (kVulkanCrashInputsThatRun.contains(path.filename().string())) continue;
    auto bytes = read_file(path);
    auto outcome = fuzz::run_vk_stream(bytes);
    EXPECT_EQ(outcome.contexts_lost, 1u) << path;
  }
}

TEST(FuzzReplay, VulkanCrashInputsOfValidUseRunWithoutLosingTheDevice) {
  for (const std::string& name : kVulkanCrashInputsThatRun) {
    const fs::path path = fs::path(FUZZ_SEEDS_DIR) / "vk-session-crashes" / name;
    ASSERT_TRUE(fs::is_regular_file(path)) << path;
    auto outcome = fuzz::run_vk_stream(read_file(path));
    EXPECT_GT(outcome.commands, 30u) << path;
    EXPECT_EQ(outcome.contexts_lost, 0u) << path;
  }
}

TEST(FuzzReplay, CrashInputsLeaveTheHostStanding) {
  for (const auto& path : inputs_in("session-crashes")) {
    auto bytes = read_file(path);
    auto outcome = fuzz::run_stream(bytes);
    EXPECT_GT(outcome.commands, 0u) << path;
  }
}

// Committed captures of real programs (seeds/capture) replay whole: every
// batch passes the host's checks and every frame the guest received is
// made again. (Their hashes are llvmpipe's of the machine that recorded
// them, so only conduit replay compares them.)
TEST(FuzzReplay, CommittedCapturesReplayWhole) {
  auto captures = inputs_in("capture");
  ASSERT_FALSE(captures.empty()) << "no captures under " << FUZZ_SEEDS_DIR;
  auto display = host::EglDisplay::open({});
  ASSERT_TRUE(display.ok()) << display.error().describe();
  for (const auto& path : captures) {
    auto r = host::replay_capture(path.string(), **display, {});
    ASSERT_TRUE(r.ok()) << path << ": " << r.error().describe();
    EXPECT_FALSE(r->broken) << path << ": " << r->broken->describe();
    EXPECT_TRUE(r->complete) << path;
    EXPECT_EQ(r->contexts_lost, 0u) << path;
    EXPECT_GT(r->recorded_frames, 0u) << path;
    EXPECT_EQ(r->compared, r->recorded_frames) << path;
  }
}

}  // namespace
