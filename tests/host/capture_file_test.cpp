// The capture file (host/capture_format.h): what the writer writes the
// reader reads back; a truncated, corrupted or foreign file is refused with
// where it went wrong.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "host/capture_reader.h"
#include "host/capture_writer.h"
#include "host/egl_display.h"
#include "host/replay.h"

namespace {

using host::capture::Reader;
using host::capture::RecordKind;
using host::capture::Writer;

std::span<const std::byte> text(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }

class CaptureFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/tmp/conduit-capture-test-XXXXXX";
    ASSERT_NE(mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A capture: the description, `batches` batches of `batch_bytes` varied
  // bytes with a heap record each, the end.
  std::string write(int batches, size_t batch_bytes = 4096) {
    const std::string path = dir_ + "/c" + std::to_string(files_++) + ".cdcap";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    EXPECT_GE(fd, 0);
    auto w = Writer::open(fd, "test", 64 << 10);  // a small queue: the session waits for the disk
    EXPECT_TRUE(w.ok());
    (*w)->record(RecordKind::kInfo, {text(R"({"heap_bytes":4096})")});
    for (int b = 0; b < batches; ++b) {
      std::vector<std::byte> batch(batch_bytes);
      for (size_t i = 0; i < batch.size(); ++i) batch[i] = std::byte((i * 131 + b * 7) >> 3);
      const uint64_t offset = b;
      (*w)->record(RecordKind::kHeap, {std::as_bytes(std::span(&offset, 1)), text("heap")});
      (*w)->record(RecordKind::kBatch, {batch});
    }
    (*w)->record(RecordKind::kEnd, {text("{}")});
    w->reset();
    return path;
  }

  std::vector<char> bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  std::string rewrite(const std::vector<char>& bytes) {
    const std::string path = dir_ + "/r" + std::to_string(files_++) + ".cdcap";
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  // Reads to the end; the error that stopped it, if any.
  std::optional<wire::Error> read_all(const std::string& path, int* batches) {
    auto r = Reader::open(path);
    if (!r) return r.error();
    *batches = 0;
    for (;;) {
      auto rec = (*r)->next();
      if (!rec) return rec.error();
      if (!*rec) return std::nullopt;
      if ((*rec)->kind == RecordKind::kBatch) ++*batches;
    }
  }

  std::string dir_;
  int files_ = 0;
};

TEST_F(CaptureFile, WhatIsWrittenIsReadBackInOrder) {
  const std::string path = write(300);
  auto r = Reader::open(path);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  auto first = (*r)->next();
  ASSERT_TRUE(first.ok() && *first);
  EXPECT_EQ((*first)->kind, RecordKind::kInfo);
  for (int b = 0; b < 300; ++b) {
    auto heap = (*r)->next();
    ASSERT_TRUE(heap.ok() && *heap);
    ASSERT_EQ((*heap)->kind, RecordKind::kHeap);
    uint64_t offset;
    std::memcpy(&offset, (*heap)->payload.data(), sizeof offset);
    EXPECT_EQ(offset, uint64_t(b));
    auto batch = (*r)->next();
    ASSERT_TRUE(batch.ok() && *batch);
    ASSERT_EQ((*batch)->kind, RecordKind::kBatch);
    ASSERT_EQ((*batch)->payload.size(), 4096u);
    EXPECT_EQ((*batch)->payload[100], std::byte((100 * 131 + b * 7) >> 3));
  }
  auto end = (*r)->next();
  ASSERT_TRUE(end.ok() && *end);
  EXPECT_EQ((*end)->kind, RecordKind::kEnd);
  auto after = (*r)->next();
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(*after);
}

TEST_F(CaptureFile, ATruncatedFileSaysWhereItEnds) {
  auto bytes = bytes_of(write(300));
  bytes.resize(bytes.size() / 2);
  int batches = 0;
  auto err = read_all(rewrite(bytes), &batches);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->code, wire::Errc::kTruncated);
  EXPECT_NE(err->detail.find("at file byte "), std::string::npos) << err->detail;
  EXPECT_GT(batches, 0);  // what came before the cut was read
  EXPECT_LT(batches, 300);
}

TEST_F(CaptureFile, AFileWithoutItsEndIsTruncated) {
  const std::string path = dir_ + "/noend.cdcap";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  {
    auto w = Writer::open(fd, "test");
    ASSERT_TRUE(w.ok());
    (*w)->record(RecordKind::kInfo, {text("{}")});
  }
  int batches = 0;
  auto err = read_all(path, &batches);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->code, wire::Errc::kTruncated);
}

TEST_F(CaptureFile, ACorruptedFileSaysWhereItBreaks) {
  auto bytes = bytes_of(write(300));
  for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 32; ++i) bytes[i] ^= 0x5a;
  int batches = 0;
  auto err = read_all(rewrite(bytes), &batches);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->code, wire::Errc::kBadValue);
  EXPECT_NE(err->detail.find("corrupted"), std::string::npos) << err->detail;
  EXPECT_NE(err->detail.find("at file byte "), std::string::npos) << err->detail;
}

TEST_F(CaptureFile, AnotherProtocolVersionIsRefusedAtOnce) {
  auto bytes = bytes_of(write(1));
  const uint32_t other = wire::kProtocolVersion + 1;
  std::memcpy(bytes.data() + offsetof(host::capture::FileHeader, protocol_version), &other, sizeof other);
  auto r = Reader::open(rewrite(bytes));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().detail.find("wire protocol version " + std::to_string(other)), std::string::npos)
      << r.error().detail;
}

TEST_F(CaptureFile, NotACaptureIsRefused) {
  auto r = Reader::open(rewrite(std::vector<char>(100, 'x')));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().detail.find("not a Conduit capture"), std::string::npos);
}

// The virtual memory this process has mapped, from /proc/self/status.
uint64_t mapped_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  uint64_t kib = 0;
  while (status >> key) {
    if (key == "VmSize:" && status >> kib) return kib << 10;
    status.ignore(1 << 20, '\n');
  }
  return 0;
}

// A record header claiming a gigabyte, in a file that ends before it is
// met: the reader finds it truncated without first taking the gigabyte.
TEST_F(CaptureFile, ARecordsClaimedSizeIsNotAllocatedBeforeItsBytesCome) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "an address-space limit does not work under AddressSanitizer";
#endif
  const std::string info = "{}";
  const host::capture::RecordHeader info_header{static_cast<uint32_t>(RecordKind::kInfo),
                                                static_cast<uint32_t>(info.size()),
                                                host::capture::payload_checksum(text(info))};
  const host::capture::RecordHeader claim{static_cast<uint32_t>(RecordKind::kBatch), host::capture::kMaxRecordBytes,
                                          0};
  // After the claim, less than it claims, and incompressible: the file
  // still has bytes to read when the claim is met.
  std::vector<char> stream(sizeof info_header + info.size() + sizeof claim + (512u << 10));
  uint32_t noise = 1;
  for (char& c : stream) c = static_cast<char>((noise = noise * 1664525u + 1013904223u) >> 24);
  std::memcpy(stream.data(), &info_header, sizeof info_header);
  std::memcpy(stream.data() + sizeof info_header, info.data(), info.size());
  std::memcpy(stream.data() + sizeof info_header + info.size(), &claim, sizeof claim);
  host::capture::FileHeader h{};
  std::memcpy(h.magic, host::capture::kMagic, sizeof h.magic);
  h.format_version = host::capture::kFormatVersion;
  h.protocol_version = wire::kProtocolVersion;
  std::vector<char> file(sizeof h + ZSTD_compressBound(stream.size()));
  std::memcpy(file.data(), &h, sizeof h);
  const size_t packed = ZSTD_compress(file.data() + sizeof h, file.size() - sizeof h, stream.data(), stream.size(), 1);
  ASSERT_FALSE(ZSTD_isError(packed));
  file.resize(sizeof h + packed);
  const std::string path = rewrite(file);

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Room for the reader's buffers, not for the claim.
    const rlimit limit{mapped_bytes() + (256u << 20), mapped_bytes() + (256u << 20)};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
    try {
      int batches = 0;
      auto err = read_all(path, &batches);
      _exit(err && err->code == wire::Errc::kTruncated ? 0 : 1);
    } catch (...) {
      _exit(2);  // out of memory: the claim was taken
    }
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the reader died (signal " << WTERMSIG(status) << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// A capture is as untrusted as a guest: what it claims is checked before
// it is used, and its batches go through the session's own checks.
class HostileCapture : public CaptureFile {
 protected:
  static void SetUpTestSuite() {
    auto d = host::EglDisplay::open({});
    ASSERT_TRUE(d.ok()) << d.error().describe();
    display_ = std::move(*d);
  }
  static void TearDownTestSuite() { display_.reset(); }

  std::string capture(const std::string& info, const std::vector<std::pair<RecordKind, std::vector<std::byte>>>& recs) {
    const std::string path = dir_ + "/h" + std::to_string(files_++) + ".cdcap";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    auto w = Writer::open(fd, "test");
    EXPECT_TRUE(w.ok());
    (*w)->record(RecordKind::kInfo, {text(info)});
    for (const auto& [kind, bytes] : recs) (*w)->record(kind, {bytes});
    (*w)->record(RecordKind::kEnd, {text("{}")});
    return path;
  }

  static inline std::unique_ptr<host::EglDisplay> display_;
};

std::vector<std::byte> heap_record(uint64_t offset, size_t size) {
  std::vector<std::byte> r(sizeof offset + size, std::byte{7});
  std::memcpy(r.data(), &offset, sizeof offset);
  return r;
}

TEST_F(HostileCapture, HeapBytesOutsideTheCapturedHeapStopTheReplay) {
  const auto path = capture(R"({"heap_bytes":4096})", {{RecordKind::kHeap, heap_record(4000, 200)}});
  auto r = host::replay_capture(path, *display_, {});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(r->broken);
  EXPECT_NE(r->broken->detail.find("outside the captured heap"), std::string::npos) << r->broken->detail;
  EXPECT_EQ(r->batches, 0u);
}

TEST_F(HostileCapture, AnOversizedHeapIsRefused) {
  const auto path = capture(R"({"heap_bytes":1099511627776})", {});
  auto r = host::replay_capture(path, *display_, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().detail.find("a heap of"), std::string::npos) << r.error().detail;
}

TEST_F(HostileCapture, SizesThatAreNoByteCountsAreRefused) {
  for (const char* info : {R"({"heap_bytes":"4096"})", R"({"heap_bytes":4096.5})", R"({"area_bytes":-1})",
                           R"({"area_bytes":1e300})", R"({"heap_bytes":[1]})"}) {
    auto r = host::replay_capture(capture(info, {}), *display_, {});
    ASSERT_FALSE(r.ok()) << info;
    EXPECT_NE(r.error().detail.find("not a byte count"), std::string::npos) << info << ": " << r.error().detail;
  }
}

TEST_F(HostileCapture, ADescriptionThatIsNotJsonIsRefused) {
  const auto path = capture("{heap", {});
  auto r = host::replay_capture(path, *display_, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().detail.find("not JSON"), std::string::npos) << r.error().detail;
}

TEST_F(HostileCapture, AGarbageBatchBreaksTheSessionNotTheReplay) {
  std::vector<std::byte> garbage(256);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = std::byte(i * 37);
  const auto path = capture("{}", {{RecordKind::kBatch, garbage}, {RecordKind::kBatch, garbage}});
  auto r = host::replay_capture(path, *display_, {});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_FALSE(r->broken);
  EXPECT_EQ(r->commands, 0u);  // the framing was refused before any command ran
  EXPECT_EQ(r->batches, 1u);   // and the session, whose stream broke, took no more
}

}  // namespace
