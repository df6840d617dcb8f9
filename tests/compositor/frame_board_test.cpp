// Frame boards between a renderer and the compositor: the newest frame
// wins, frames are never torn by the writer's next one, and a board that
// lies about itself is refused.
#include "comp/frame_board.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <span>
#include <string>
#include <vector>

namespace comp {
namespace {

std::vector<std::byte> filled(FrameSize size, uint8_t value) {
  return std::vector<std::byte>(size.bytes(), std::byte{value});
}

std::unique_ptr<FrameBoardReader> reader_of(const FrameBoardWriter& w, FrameSize size) {
  auto r = FrameBoardReader::adopt(::dup(w.memory_fd()), ::dup(w.doorbell_fd()), size);
  EXPECT_TRUE(r) << (r ? "" : r.error().describe());
  return r ? std::move(*r) : nullptr;
}

// A board of `size` and a reader of it.
struct Board {
  std::unique_ptr<FrameBoardWriter> writer;
  std::unique_ptr<FrameBoardReader> reader;
};

Board board_of(FrameSize size) {
  auto w = FrameBoardWriter::create(size);
  EXPECT_TRUE(w);
  if (!w) return {};
  auto r = reader_of(**w, size);
  return {std::move(*w), std::move(r)};
}

// What a reader's last take() gave: a frame's bytes and its stamp.
struct Taken {
  bool from(FrameBoardReader& r) { return r.take(&px, &stamp); }

  std::span<const std::byte> px;
  FrameStamp stamp{};
};

bool rang(const FrameBoardReader& r) {
  pollfd p{r.doorbell_fd(), POLLIN, 0};
  return ::poll(&p, 1, 0) == 1;
}

TEST(FrameBoard, ReaderTakesTheNewestFrameOnce) {
  const FrameSize size{7, 5};
  auto [w, r] = board_of(size);
  ASSERT_TRUE(w && r);
  Taken taken;
  EXPECT_FALSE(taken.from(*r));
  EXPECT_FALSE(rang(*r));
  for (uint8_t v = 1; v <= 3; ++v) w->publish(filled(size, v), 100 + v);
  EXPECT_TRUE(rang(*r));
  r->drain_doorbell();
  EXPECT_FALSE(rang(*r));
  ASSERT_TRUE(taken.from(*r));
  EXPECT_EQ(taken.stamp.frame_id, 103u);
  EXPECT_EQ(taken.stamp.sequence, 3u);
  EXPECT_GT(taken.stamp.published_ns, 0);
  ASSERT_EQ(taken.px.size(), size.bytes());
  for (auto b : taken.px) ASSERT_EQ(b, std::byte{3});
  EXPECT_FALSE(taken.from(*r));
}

TEST(FrameBoard, FrameBeingReadIsNotOverwritten) {
  const FrameSize size{4, 4};
  auto [w, r] = board_of(size);
  ASSERT_TRUE(w && r);
  Taken taken;
  w->publish(filled(size, 9), 1);
  ASSERT_TRUE(taken.from(*r));
  // However many frames come while the reader holds its slot, it keeps its bytes.
  for (uint8_t v = 10; v < 30; ++v) w->publish(filled(size, v), v);
  for (auto b : taken.px) ASSERT_EQ(b, std::byte{9});
  ASSERT_TRUE(taken.from(*r));
  EXPECT_EQ(taken.stamp.frame_id, 29u);
  for (auto b : taken.px) ASSERT_EQ(b, std::byte{29});
}

TEST(FrameBoard, SizesThatDoNotMatchAreRefused) {
  const FrameSize size{16, 16};
  auto w = FrameBoardWriter::create(size);
  ASSERT_TRUE(w);
  EXPECT_FALSE(FrameBoardReader::adopt(::dup((*w)->memory_fd()), ::dup((*w)->doorbell_fd()), FrameSize{64, 64}));
  EXPECT_FALSE(FrameBoardReader::adopt(::dup((*w)->memory_fd()), ::dup((*w)->doorbell_fd()), FrameSize{16, 8}));
  EXPECT_FALSE(FrameBoardReader::adopt(::dup((*w)->memory_fd()), ::dup((*w)->doorbell_fd()), FrameSize{0, 8}));
  EXPECT_FALSE(FrameBoardWriter::create(FrameSize{0, 1}));
  EXPECT_FALSE(FrameBoardWriter::create(FrameSize{FrameBoardWriter::kMaxSide + 1, 1}));
}

// The supervisor maps boards that renderers made: one a renderer could
// still shrink would make the supervisor's next read of it fault (SIGBUS).
TEST(FrameBoard, BoardsThatCouldShrinkAreRefused) {
  const FrameSize size{16, 16};
  auto [w, r] = board_of(size);
  ASSERT_TRUE(w && r);
  EXPECT_NE(::ftruncate(w->memory_fd(), 0), 0) << "the writer's board is sealed at its size";
  EXPECT_EQ(errno, EPERM);
  EXPECT_NE(::ftruncate(w->memory_fd(), 1 << 30), 0) << "nor can it grow";
  Taken taken;
  w->publish(filled(size, 7), 1);
  EXPECT_TRUE(taken.from(*r)) << "the reader still reads it";

  // A board of the right size and contents, but unsealed.
  const int unsealed = ::memfd_create("unsealed-board", MFD_CLOEXEC);
  ASSERT_GE(unsealed, 0);
  std::vector<std::byte> copy(1 << 16);
  const ssize_t n = ::pread(w->memory_fd(), copy.data(), copy.size(), 0);
  ASSERT_GT(n, 0);
  ASSERT_EQ(::pwrite(unsealed, copy.data(), static_cast<size_t>(n), 0), n);
  auto refused = FrameBoardReader::adopt(unsealed, ::dup(w->doorbell_fd()), size);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().describe().find("sealed"), std::string::npos) << refused.error().describe();
}

TEST(FrameBoard, ScribbledSlotIndexIsIgnored) {
  const FrameSize size{2, 2};
  auto [w, r] = board_of(size);
  ASSERT_TRUE(w && r);
  // A renderer that writes nonsense into the shared header: slot 3 with the fresh bit.
  auto* words = static_cast<uint32_t*>(nullptr);
  std::vector<std::byte> header(64);
  ASSERT_EQ(::pread(w->memory_fd(), header.data(), header.size(), 0), 64);
  words = reinterpret_cast<uint32_t*>(header.data());
  words[3] = 4 | 3;
  ASSERT_EQ(::pwrite(w->memory_fd(), header.data(), header.size(), 0), 64);
  Taken taken;
  EXPECT_FALSE(taken.from(*r));
}

}  // namespace
}  // namespace comp
