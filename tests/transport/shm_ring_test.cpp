// The shared ring and blob heap on their own: wrap-around at every offset,
// full rings, and hostile values written into the control block.
#include "shm_ring.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "peer_process.h"

namespace wire::transport::shm {
namespace {

using wire::testing::fill_pattern;
using wire::testing::matches_pattern;

// A region in ordinary heap memory, so ASan sees any access outside it.
struct LocalRegion {
  explicit LocalRegion(size_t ring, size_t heap) {
    layout = *make_layout(ring, heap);
    bytes.resize(layout.total_bytes + kLine);
    // Align the control block like a mapping would be.
    auto addr = reinterpret_cast<uintptr_t>(bytes.data());
    base = bytes.data() + ((kLine - addr % kLine) % kLine);
    init_region(base, layout, kConnected);
  }
  DirectionControl* dir(int d) { return &control(base)->dir[d]; }
  std::byte* ring(int d) { return base + layout.ring_offset[d]; }
  std::byte* heap(int d) { return base + layout.heap_offset[d]; }
  RingProducer producer(int d) { return RingProducer(dir(d), ring(d), layout.ring_bytes); }
  RingConsumer consumer(int d) { return RingConsumer(dir(d), ring(d), layout.ring_bytes); }

  Layout layout;
  std::vector<std::byte> bytes;
  std::byte* base;
};

TEST(ShmRing, WrapsAroundAtEveryOffsetAndSize) {
  LocalRegion r(4096, 4096);
  RingProducer p = r.producer(0);
  RingConsumer c = r.consumer(0);
  std::vector<std::byte> msg;
  uint64_t seed = 0;
  // Sizes 0..700 (every residue modulo the record alignment) walk the head
  // over every offset of the 4 KiB ring many times.
  for (int round = 0; round < 3; ++round) {
    for (size_t size = 0; size <= 700; ++size, ++seed) {
      msg.resize(size);
      fill_pattern(msg, seed);
      auto w = p.try_write(msg, 0, seed);
      ASSERT_TRUE(w && *w) << "size " << size;
      auto rec = c.peek();
      ASSERT_TRUE(rec && *rec) << "size " << size;
      ASSERT_EQ((*rec)->payload.size(), size);
      ASSERT_TRUE(matches_pattern((*rec)->payload, seed));
      EXPECT_EQ((*rec)->heap_mark, seed);
      c.consume((*rec)->next_tail, std::nullopt);
      auto none = c.peek();
      ASSERT_TRUE(none && !*none);
    }
  }
}

TEST(ShmRing, FullRingRefusesThenAcceptsAfterConsume) {
  LocalRegion r(4096, 4096);
  RingProducer p = r.producer(1);
  RingConsumer c = r.consumer(1);
  std::vector<std::byte> msg(1000);
  int written = 0;
  for (;; ++written) {
    fill_pattern(msg, written);
    auto w = p.try_write(msg, 0, 0);
    ASSERT_TRUE(w);
    if (!*w) break;
  }
  EXPECT_EQ(written, 4);  // 4 x (16 + 1008) bytes fill 4096 exactly
  for (int i = 0; i < written; ++i) {
    auto rec = c.peek();
    ASSERT_TRUE(rec && *rec);
    ASSERT_TRUE(matches_pattern((*rec)->payload, i));
    c.consume((*rec)->next_tail, std::nullopt);
    fill_pattern(msg, 100 + i);
    auto w = p.try_write(msg, 0, 0);
    ASSERT_TRUE(w && *w);
  }
  EXPECT_EQ(p.max_record(), 2048u - sizeof(RecordHeader));
}

TEST(ShmHeap, ExhaustionThenReuseInOrder) {
  LocalRegion r(4096, 64 * 1024);
  HeapProducer heap(r.dir(0), r.heap(0), r.layout.heap_bytes);
  std::vector<std::byte> blob(20 * 1024);
  uint64_t offsets[4];
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(heap.put(blob, &offsets[i]));
  EXPECT_FALSE(heap.put(blob, &offsets[3]));  // 3 x 20 KiB, 4 KiB left
  uint64_t mark = heap.mark();
  // The consumer releases everything up to the mark it got with a message.
  r.dir(0)->consumer.heap_tail.store(mark);
  fill_pattern(blob, 9);
  ASSERT_TRUE(heap.put(blob, &offsets[3]));
  EXPECT_EQ(offsets[3], 0u);  // did not fit before the end: wrapped to the start
  EXPECT_TRUE(matches_pattern({r.heap(0) + offsets[3], blob.size()}, 9));
  EXPECT_FALSE(heap.put(std::vector<std::byte>(65 * 1024), &offsets[0]));
}

TEST(ShmHostile, ProducerHeadOutOfRange) {
  LocalRegion r(4096, 4096);
  RingConsumer c = r.consumer(0);
  for (uint64_t head : {uint64_t{4097}, uint64_t{1} << 63, ~uint64_t{0}}) {
    r.dir(0)->producer.head.store(head);
    auto rec = c.peek();
    ASSERT_FALSE(rec) << head;
    EXPECT_EQ(rec.error().code, Errc::kBadValue);
  }
}

TEST(ShmHostile, RecordHeadersThatCannotBeRight) {
  struct Case {
    RecordHeader h;
    uint64_t head;
  };
  const Case cases[] = {
      {{5000, 0, 0}, 4096},                  // larger than the ring
      {{4096 - 16 + 1, 0, 0}, 4096},         // one byte past the end
      {{100, 0, 0}, 64},                     // beyond the published head
      {{8, 0x80, 0}, 64},                    // unknown flag
      {{8, kRecordPad, 0}, 64},              // padding that does not reach the end
      {{4080, kRecordPad | kRecordMore, 0}, 4096},
      {{0xffffffff, 0, 0}, 4096},
  };
  for (const Case& k : cases) {
    LocalRegion r(4096, 4096);
    std::memcpy(r.ring(0), &k.h, sizeof k.h);
    r.dir(0)->producer.head.store(k.head);
    RingConsumer c = r.consumer(0);
    auto rec = c.peek();
    ASSERT_FALSE(rec) << "size " << k.h.size << " flags " << k.h.flags;
    EXPECT_EQ(rec.error().code, Errc::kBadValue) << rec.error().describe();
  }
}

TEST(ShmHostile, ConsumerTailOutOfRange) {
  LocalRegion r(4096, 4096);
  RingProducer p = r.producer(0);
  std::vector<std::byte> msg(3000);
  ASSERT_TRUE(*p.try_write(msg, 0, 0));
  // Too big to fit, so the producer consults the tail, which is garbage.
  r.dir(0)->consumer.tail.store(1u << 20);
  auto w = p.try_write(msg, 0, 0);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, Errc::kBadValue);
}

TEST(ShmHostile, HeapTailOutOfRange) {
  LocalRegion r(4096, 8192);
  HeapProducer heap(r.dir(0), r.heap(0), r.layout.heap_bytes);
  std::vector<std::byte> blob(5000);
  uint64_t off;
  ASSERT_TRUE(heap.put(blob, &off));
  r.dir(0)->consumer.heap_tail.store(~uint64_t{0});
  EXPECT_FALSE(heap.put(blob, &off));
  ASSERT_TRUE(heap.error());
  EXPECT_EQ(heap.error()->code, Errc::kBadValue);
}

TEST(ShmHostile, BadRegionHeaders) {
  LocalRegion r(4096, 4096);
  auto* h = &control(r.base)->header;
  EXPECT_TRUE(read_layout(r.base, r.layout.total_bytes));
  EXPECT_FALSE(read_layout(r.base, r.layout.total_bytes - 1));
  EXPECT_FALSE(read_layout(r.base, 10));
  h->ring_bytes = 4097;
  EXPECT_FALSE(read_layout(r.base, r.layout.total_bytes));
  h->ring_bytes = 4096;
  h->heap_bytes = uint64_t{1} << 62;
  EXPECT_FALSE(read_layout(r.base, r.layout.total_bytes));
  h->heap_bytes = 4096;
  h->total_bytes = 1;
  EXPECT_FALSE(read_layout(r.base, r.layout.total_bytes));
  h->total_bytes = r.layout.total_bytes;
  h->version = 7;
  EXPECT_EQ(read_layout(r.base, r.layout.total_bytes).error().code, Errc::kBadVersion);
  h->magic = 0;
  EXPECT_EQ(read_layout(r.base, r.layout.total_bytes).error().code, Errc::kBadMagic);
}

}  // namespace
}  // namespace wire::transport::shm
