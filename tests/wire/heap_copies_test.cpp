// A hostile peer's heap references are read through private copies: bytes
// the peer changes after sending never reach the reader, and a command read
// twice gets the same bytes both times.
#include <gtest/gtest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "wire/reader.h"
#include "wire/writer.h"

namespace {

// One command payload with two heap references: [0, 4) and [8, 12).
std::vector<std::byte> two_references() {
  wire::Writer w;
  for (uint64_t offset : {0u, 8u}) {
    w.put(static_cast<uint32_t>(wire::DataKind::kHeap));
    w.put(offset);
    w.put<uint32_t>(4);
  }
  return {w.bytes().begin(), w.bytes().end()};
}

std::string text(const wire::Data& d) {
  return {reinterpret_cast<const char*>(d.bytes.data()), d.bytes.size()};
}

class HeapCopiesTest : public ::testing::Test {
 protected:
  std::vector<std::byte> heap_ = std::vector<std::byte>(16);
  std::vector<std::byte> payload_ = two_references();
  wire::HeapCopies copies_{heap_};

  void write_heap(size_t at, const char* s) { std::memcpy(heap_.data() + at, s, std::strlen(s)); }
};

TEST_F(HeapCopiesTest, BytesChangedAfterTheReadAreNotSeen) {
  write_heap(0, "abc");
  wire::Reader r(payload_, 0, copies_);
  auto d = r.get_data();
  ASSERT_TRUE(d.ok());
  write_heap(0, "xyz");
  EXPECT_EQ(text(*d), std::string("abc\0", 4));
  EXPECT_TRUE(d->bytes.data() < heap_.data() || d->bytes.data() >= heap_.data() + heap_.size());
}

TEST_F(HeapCopiesTest, ACommandReadAgainGetsTheSameCopy) {
  write_heap(0, "abc");
  wire::Reader first(payload_, 0, copies_);
  wire::Reader again = first;  // e.g. a check that decodes the command before its handler
  auto checked = again.get_data();
  ASSERT_TRUE(checked.ok());
  write_heap(0, "xyz");
  auto used = first.get_data();
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(text(*used), std::string("abc\0", 4));
  EXPECT_EQ(used->bytes.data(), checked->bytes.data());
}

TEST_F(HeapCopiesTest, TheNextCommandReadsTheHeapAfresh) {
  write_heap(8, "one");
  {
    wire::Reader r(payload_, 0, copies_);
    ASSERT_TRUE(r.get_data().ok());
    ASSERT_EQ(text(*r.get_data()), std::string("one\0", 4));
  }
  write_heap(8, "two");
  wire::Reader next(payload_, 0, copies_);  // same offset in a later batch
  ASSERT_TRUE(next.get_data().ok());
  EXPECT_EQ(text(*next.get_data()), std::string("two\0", 4));
}

TEST_F(HeapCopiesTest, InPlaceReadsBorrowTheHeap) {
  wire::Reader r(payload_, 0, copies_);
  auto d = r.get_data_in_place();
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->bytes.data(), heap_.data());
}

// More than the heap holds can only be references to the same bytes over
// and over: refused before it costs memory.
TEST_F(HeapCopiesTest, ReferencesAboveTheHeapSizeAreRefused) {
  wire::Writer w;
  for (int i = 0; i < 5; ++i) {
    w.put(static_cast<uint32_t>(wire::DataKind::kHeap));
    w.put(uint64_t{0});
    w.put<uint32_t>(4);
  }
  std::vector<std::byte> payload(w.bytes().begin(), w.bytes().end());
  wire::Reader r(payload, 0, copies_);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(r.get_data().ok()) << i;
  auto fifth = r.get_data();
  ASSERT_FALSE(fifth.ok());
  EXPECT_EQ(fifth.error().code, wire::Errc::kLimit);
}

// A command that copied a lot keeps none of it for the next, whichever of
// its references was the large one.
TEST(HeapCopiesMemory, LargeCopiesAreNotKeptForTheNextCommand) {
  constexpr uint32_t kLarge = 2u << 20;
  const std::vector<std::byte> heap(kLarge + 4);
  wire::Writer w;
  for (auto [offset, size] : {std::pair<uint64_t, uint32_t>{0, kLarge}, {kLarge, 4}}) {
    w.put(static_cast<uint32_t>(wire::DataKind::kHeap));
    w.put(offset);
    w.put(size);
  }
  const std::vector<std::byte> payload(w.bytes().begin(), w.bytes().end());
  wire::HeapCopies copies(heap);
  {
    wire::Reader r(payload, 0, copies);
    ASSERT_TRUE(r.get_data().ok());
    ASSERT_TRUE(r.get_data().ok());
    EXPECT_GE(copies.kept_bytes(), kLarge);
  }
  wire::Reader next(payload, 0, copies);
  EXPECT_LT(copies.kept_bytes(), kLarge);
}

}  // namespace
