// The host's memory beyond one guest's limit: the size option of
// --max-host-memory, the budget that refuses new guests while renderers
// hold it (with the reason, to the guest), and compressed batches that
// claim or expand to more than they may.
#include <gtest/gtest.h>
#include <signal.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "host/memory_budget.h"
#include "host_fixture.h"
#include "renderer_guests.h"
#include "wire/format.h"

namespace hosttest {
namespace {

constexpr uint64_t kMiB = 1u << 20;

TEST(MemorySizes, SizesWithSuffixes) {
  EXPECT_EQ(host::parse_size("65536"), 65536u);
  EXPECT_EQ(host::parse_size("512K"), 512u << 10);
  EXPECT_EQ(host::parse_size("3m"), 3 * kMiB);
  EXPECT_EQ(host::parse_size("2G"), 2ull << 30);
  EXPECT_EQ(host::parse_size("17179869183G"), 17179869183ull << 30);  // the largest in G
  for (const char* bad : {"", "G", "2T", "2GB", "-1", " 2G", "2 G", "0x10", "18446744073709551616",
                          "17179869184G"}) {
    EXPECT_FALSE(host::parse_size(bad)) << bad;
  }
}

TEST(MemorySizes, SharesOfPhysicalMemory) {
  constexpr uint64_t kPhysical = 24ull << 30;
  EXPECT_EQ(host::parse_memory_share("75%", kPhysical), 18ull << 30);
  EXPECT_EQ(host::parse_memory_share("100%", kPhysical), kPhysical);
  EXPECT_EQ(host::parse_memory_share("1%", 1000), 10u);
  EXPECT_EQ(host::parse_memory_share("33%", 1001), 330u);
  EXPECT_EQ(host::parse_memory_share("50%", UINT64_MAX), UINT64_MAX / 2) << "no overflow";
  EXPECT_EQ(host::parse_memory_share("8G", kPhysical), 8ull << 30) << "a size stays a size";
  for (const char* bad : {"0%", "101%", "7.5%", "%", "1G%", "75 %", "-5%", "75%%"}) {
    EXPECT_FALSE(host::parse_memory_share(bad, kPhysical)) << bad;
  }
  EXPECT_GT(host::physical_memory_bytes(), 64 * kMiB);
}

// RssAnon + RssShmem: memory this process touches counts, at once.
TEST(MemorySizes, AProcesssMemoryIsWhatItTouched) {
  const uint64_t before = host::process_memory_bytes(getpid());
  EXPECT_GT(before, 0u);
  std::vector<char> touched(64 * kMiB);
  std::fill(touched.begin(), touched.end(), 1);
  EXPECT_GE(host::process_memory_bytes(getpid()), before + 60 * kMiB);
  EXPECT_EQ(host::process_memory_bytes(-1), 0u) << "no such process";
}

// One byte: the renderer serving the first guest spends it.
host::HostOptions tiny_budget() {
  host::HostOptions o = isolated();
  o.max_host_memory = 1;
  return o;
}

TEST(HostMemoryBudget, AGuestBeyondTheBudgetIsToldWhyWhileTheFirstRenders) {
  RunningHost host(tiny_budget());
  ASSERT_TRUE(host.ok()) << host.error();
  auto first = ready_guest(host.address());
  ASSERT_TRUE(first) << "no renderer serves a guest yet: nothing is spent";
  ASSERT_TRUE(renders(*first, 120, 1));

  auto second = TestGuest::connect(host.address());
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->hello().ok());
  EXPECT_NE(second->refusal.find("the host's memory budget is spent"), std::string::npos) << second->refusal;
  EXPECT_NE(second->refusal.find("(--max-host-memory)"), std::string::npos) << second->refusal;
  EXPECT_TRUE(second->wait_closed());
  EXPECT_TRUE(renders(*first, 60, 2)) << "the first guest carries on";

  const nlohmann::json stats = host.server().stats_json();
  EXPECT_GT(stats["host_memory"]["counted_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(stats["host_memory"]["budget_bytes"], 1);
  EXPECT_EQ(stats["host_memory"]["refused"], 1);
  EXPECT_EQ(stats["renderers"]["refused"], 1);
  EXPECT_GT(stats["sessions"].at(0)["renderer_memory_bytes"].get<uint64_t>(), 0u);

  // Its renderer's memory goes with it: the next guest is served.
  first.reset();
  std::unique_ptr<TestGuest> later;
  for (int i = 0; i < 100 && !later; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    later = ready_guest(host.address());
  }
  ASSERT_TRUE(later);
  EXPECT_TRUE(renders(*later, 90, 1));
}

// A zstd frame of `bytes` zero bytes, written in pieces so that it does
// not say how large it is.
std::vector<std::byte> compressed_zeros(uint64_t bytes) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, 20);
  const std::vector<std::byte> zeros(kMiB);
  std::vector<std::byte> out(ZSTD_CStreamOutSize()), frame;
  for (uint64_t done = 0; done < bytes;) {
    ZSTD_inBuffer in{zeros.data(), std::min<uint64_t>(zeros.size(), bytes - done), 0};
    done += in.size;
    const ZSTD_EndDirective end = done == bytes ? ZSTD_e_end : ZSTD_e_continue;
    size_t left = 0;
    do {
      ZSTD_outBuffer o{out.data(), out.size(), 0};
      left = ZSTD_compressStream2(cctx, &o, &in, end);
      frame.insert(frame.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(o.pos));
    } while (end == ZSTD_e_end ? left != 0 : in.pos < in.size);
  }
  ZSTD_freeCCtx(cctx);
  return frame;
}

// A compressed batch as a guest frames it, saying it holds `raw_size` bytes.
std::vector<std::byte> batch_claiming(uint32_t raw_size, const std::vector<std::byte>& payload) {
  const wire::BatchHeader h{wire::kBatchMagic, wire::kProtocolVersion, wire::kBatchCompressed, raw_size,
                            static_cast<uint32_t>(payload.size())};
  std::vector<std::byte> message(sizeof h + payload.size());
  std::memcpy(message.data(), &h, sizeof h);
  std::memcpy(message.data() + sizeof h, payload.data(), payload.size());
  return message;
}

// 1 GiB of zeros in about 40 KiB, in a batch that says 1 MiB.
std::vector<std::byte> expanding_bomb() { return batch_claiming(kMiB, compressed_zeros(1024 * kMiB)); }
// 1 MiB in a batch that says 512 MiB (within the guest's memory and --max-batch).
std::vector<std::byte> lying_header() { return batch_claiming(512 * kMiB, compressed_zeros(kMiB)); }

// This process's peak resident memory since reset_peak().
bool reset_peak() { return static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5"); }
uint64_t peak_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  unsigned long long kib = 0;
  while (std::getline(status, line)) {
    if (std::sscanf(line.c_str(), "VmHWM: %llu kB", &kib) == 1) break;
  }
  return kib * 1024;
}

// Sends `message` from a guest of its own, which loses its session.
void bomb(const std::string& address, const std::vector<std::byte>& message) {
  auto g = ready_guest(address);
  ASSERT_TRUE(g);
  ASSERT_TRUE(g->send_message(message).ok());
  wire::ContextLost lost{};
  EXPECT_TRUE(g->wait_lost(&lost, std::chrono::seconds(30)));
  EXPECT_EQ(lost.opcode, 0u) << "refused as a batch";
  EXPECT_TRUE(g->wait_closed()) << "the stream cannot be followed after it";
}

// Sessions as threads of this process, whose peak memory the test reads:
// the decoder commits only what decompression wrote, and never more than
// the header said.
TEST(CompressedBombs, RefusedBeforeTheyCostMemory) {
  const auto bombs = {expanding_bomb(), lying_header()};
  RunningHost host;
  ASSERT_TRUE(host.ok()) << host.error();
  auto witness = ready_guest(host.address());
  ASSERT_TRUE(witness && renders(*witness, 120, 1));
  for (const auto& message : bombs) {
    if (!reset_peak()) GTEST_SKIP() << "this kernel cannot reset the peak resident size";
    const uint64_t before = peak_bytes();
    bomb(host.address(), message);
    EXPECT_LT(peak_bytes(), before + 64 * kMiB);
  }
  EXPECT_TRUE(renders(*witness, 60, 2)) << "the witness carries on";
}

// In renderer processes: only the bombing guest's renderer ends, cleanly.
TEST(CompressedBombs, OnlyTheBombingGuestIsLost) {
  RunningHost host(isolated());
  ASSERT_TRUE(host.ok()) << host.error();
  auto witness = ready_guest(host.address());
  ASSERT_TRUE(witness && renders(*witness, 120, 1));
  bomb(host.address(), expanding_bomb());
  bomb(host.address(), lying_header());
  EXPECT_TRUE(renders(*witness, 60, 2)) << "the witness carries on";
  auto later = ready_guest(host.address());
  ASSERT_TRUE(later);
  EXPECT_TRUE(renders(*later, 90, 1)) << "and the host serves new guests";
  EXPECT_EQ(host.server().stats_json()["renderers"]["crashed"], 0);
}

}  // namespace
}  // namespace hosttest
