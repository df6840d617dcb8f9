#include "conn/area_allocator.h"

#include <gtest/gtest.h>

namespace icd {
namespace {

constexpr uint64_t kG = AreaAllocator::kGranule;

TEST(AreaAllocator, PlacesRoundedRangesFirstFitAndMergesFreedNeighbours) {
  AreaAllocator area(4 * kG + 100);  // the tail past the last granule is never used
  EXPECT_EQ(area.free_bytes(), 4 * kG);
  auto a = area.allocate(1);
  auto b = area.allocate(kG + 1);
  auto c = area.allocate(kG);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, 0u);
  EXPECT_EQ(*b, kG);
  EXPECT_EQ(*c, 3 * kG);
  EXPECT_FALSE(area.allocate(1));  // full

  area.release(*a);
  area.release(*c);
  EXPECT_FALSE(area.allocate(2 * kG));  // two free granules, not adjacent
  area.release(*b);
  EXPECT_EQ(area.free_bytes(), 4 * kG);
  auto whole = area.allocate(4 * kG);
  ASSERT_TRUE(whole);
  EXPECT_EQ(*whole, 0u);
}

TEST(AreaAllocator, RefusesEmptyHugeAndUnknown) {
  AreaAllocator area(2 * kG);
  EXPECT_FALSE(area.allocate(0));
  EXPECT_FALSE(area.allocate(UINT64_MAX));
  EXPECT_FALSE(area.allocate(3 * kG));
  area.release(12345);  // never allocated: nothing changes
  EXPECT_EQ(area.free_bytes(), 2 * kG);
  AreaAllocator none(0);
  EXPECT_FALSE(none.allocate(1));
}

}  // namespace
}  // namespace icd
