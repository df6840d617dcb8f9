// The ledger's arithmetic without a GL driver: per-part charges, the
// largest size a part had, deleted objects kept until nothing refers to
// them, and saturating sizes.
#include <gtest/gtest.h>

#include <climits>

#include "gl/allocation.h"
#include "gl/memory_ledger.h"

namespace host {
namespace {

using wire::ObjectType;

bool nothing_in_use(HostObject) { return false; }

struct LedgerTest : ::testing::Test {
  LedgerTest() {
    account.limits.max_total_bytes = 64 * kChargeUnit;
    account.total_bytes = 8 * kChargeUnit;  // a surface
    ledger.bind(account);
  }
  ResourceAccount account;
  MemoryLedger ledger;
};

TEST_F(LedgerTest, ChargesRoundUpAndStopAtTheLimit) {
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, 1));
  EXPECT_EQ(ledger.bytes(), kChargeUnit);
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 2, kWholeObject, 55 * kChargeUnit));
  EXPECT_EQ(account.total_bytes, 64 * kChargeUnit);
  EXPECT_FALSE(ledger.charge(ObjectType::kBuffer, 3, kWholeObject, 1));
  EXPECT_EQ(ledger.bytes_of(ObjectType::kBuffer, 3), 0u);
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 3, kWholeObject, 0));
  EXPECT_EQ(account.total_bytes, 64 * kChargeUnit);
}

TEST_F(LedgerTest, APartKeepsItsLargestSize) {
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, 10 * kChargeUnit));
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, 4 * kChargeUnit));
  EXPECT_EQ(ledger.bytes_of(ObjectType::kBuffer, 1), 10 * kChargeUnit);
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, 50 * kChargeUnit));
  EXPECT_EQ(account.total_bytes, 58 * kChargeUnit);
  // Growing past the limit is refused and leaves the old charge.
  EXPECT_FALSE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, 57 * kChargeUnit));
  EXPECT_EQ(ledger.bytes_of(ObjectType::kBuffer, 1), 50 * kChargeUnit);
}

TEST_F(LedgerTest, PartsAndKindsAreApart) {
  EXPECT_TRUE(ledger.charge(ObjectType::kTexture, 1, level_part(0, 0), kChargeUnit));
  EXPECT_TRUE(ledger.charge(ObjectType::kTexture, 1, level_part(0, 5), kChargeUnit));
  EXPECT_TRUE(ledger.charge(ObjectType::kTexture, 1, level_part(1, 0), kChargeUnit));
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, kChargeUnit));
  EXPECT_EQ(ledger.bytes_of(ObjectType::kTexture, 1), 3 * kChargeUnit);
  EXPECT_EQ(ledger.level_bytes(ObjectType::kTexture, 1, 0), 2 * kChargeUnit);
  EXPECT_EQ(ledger.level_bytes(ObjectType::kTexture, 1, 1), kChargeUnit);
  EXPECT_TRUE(ledger.charge(ObjectType::kTexture, 1, kMipChain, kChargeUnit));
  EXPECT_EQ(ledger.level_bytes(ObjectType::kTexture, 1, 0), 2 * kChargeUnit);
  EXPECT_EQ(ledger.bytes_of(ObjectType::kTexture, 1), 4 * kChargeUnit);
  ledger.retire(ObjectType::kTexture, 1);
  ledger.retire(ObjectType::kTexture, 99);  // unknown: nothing happens
  ledger.reclaim(nothing_in_use);
  EXPECT_EQ(ledger.bytes(), kChargeUnit);
  EXPECT_EQ(account.total_bytes, 9 * kChargeUnit);
  EXPECT_EQ(ledger.level_bytes(ObjectType::kTexture, 1, 0), 0u);
}

TEST_F(LedgerTest, DeletedObjectsStayChargedWhileReferenced) {
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, 10 * kChargeUnit));
  EXPECT_TRUE(ledger.charge(ObjectType::kTexture, 1, kWholeObject, 20 * kChargeUnit));
  ledger.retire(ObjectType::kBuffer, 1);
  ledger.retire(ObjectType::kBuffer, 1);  // twice counts once
  EXPECT_TRUE(ledger.worth_a_look());
  EXPECT_EQ(ledger.retired_count(), 1u);
  EXPECT_EQ(account.total_bytes, 38 * kChargeUnit) << "retired, not yet given back";
  // A vertex array still uses buffer 1 (texture 1 is a different object).
  auto buffer_one = [](HostObject o) { return o.kind == ObjectType::kBuffer && o.name == 1; };
  EXPECT_TRUE(ledger.reclaim(buffer_one).empty());
  EXPECT_FALSE(ledger.worth_a_look());
  EXPECT_EQ(account.total_bytes, 38 * kChargeUnit);
  ledger.reclaim(nothing_in_use);
  EXPECT_EQ(account.total_bytes, 28 * kChargeUnit);
  EXPECT_EQ(ledger.retired_count(), 0u);
  EXPECT_EQ(ledger.bytes_of(ObjectType::kTexture, 1), 20 * kChargeUnit);
}

TEST_F(LedgerTest, LinksKeepWhatViewsAndBufferTexturesUse) {
  EXPECT_TRUE(ledger.charge(ObjectType::kTexture, 1, kWholeObject, 10 * kChargeUnit));
  ledger.link({ObjectType::kTexture, 2}, {ObjectType::kTexture, 1});  // view 2 of 1
  ledger.link({ObjectType::kTexture, 3}, {ObjectType::kTexture, 2});  // view 3 of view 2
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 5, kWholeObject, 4 * kChargeUnit));
  ledger.link({ObjectType::kTexture, 6}, {ObjectType::kBuffer, 5});   // buffer texture
  ledger.retire(ObjectType::kTexture, 1);
  ledger.retire(ObjectType::kTexture, 2);
  ledger.retire(ObjectType::kBuffer, 5);
  ledger.reclaim(nothing_in_use);
  EXPECT_EQ(account.total_bytes, 22 * kChargeUnit) << "live view 3 and texture 6 keep all";
  ledger.retire(ObjectType::kTexture, 3);
  ledger.reclaim(nothing_in_use);
  EXPECT_EQ(account.total_bytes, 12 * kChargeUnit);
  ledger.link({ObjectType::kTexture, 6}, {ObjectType::kBuffer, 0});  // re-pointed: buffer 5 unused
  ledger.reclaim(nothing_in_use);
  EXPECT_EQ(account.total_bytes, 8 * kChargeUnit);
}

TEST_F(LedgerTest, HeldNamesComeBackWithTheirObject) {
  EXPECT_TRUE(ledger.charge(ObjectType::kRenderbuffer, 4, kWholeObject, kChargeUnit));
  ledger.hold_name(ObjectType::kRenderbuffer, 4);  // live: nothing to hold
  EXPECT_TRUE(ledger.held_names().empty());
  ledger.retire(ObjectType::kRenderbuffer, 4);
  EXPECT_TRUE(ledger.is_retired(ObjectType::kRenderbuffer, 4));
  ledger.hold_name(ObjectType::kRenderbuffer, 4);
  ASSERT_EQ(ledger.held_names().size(), 1u);
  auto everything = [](HostObject) { return true; };
  EXPECT_TRUE(ledger.reclaim(everything).empty());
  auto held = ledger.reclaim(nothing_in_use);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].kind, ObjectType::kRenderbuffer);
  EXPECT_EQ(held[0].name, 4u);
  EXPECT_FALSE(ledger.is_retired(ObjectType::kRenderbuffer, 4));
}

TEST_F(LedgerTest, ANameChargedAgainIsLiveAgain) {
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, 2 * kChargeUnit));
  ledger.retire(ObjectType::kBuffer, 1);
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, kChargeUnit));
  EXPECT_EQ(ledger.retired_count(), 0u);
  ledger.reclaim(nothing_in_use);
  EXPECT_EQ(ledger.bytes_of(ObjectType::kBuffer, 1), 2 * kChargeUnit) << "kept, old charge too";
}

TEST_F(LedgerTest, AGoneLedgerGivesEverythingBack) {
  {
    MemoryLedger other;
    other.bind(account);
    EXPECT_TRUE(other.charge(ObjectType::kRenderbuffer, 7, kWholeObject, 20 * kChargeUnit));
    EXPECT_EQ(account.total_bytes, 28 * kChargeUnit);
  }
  EXPECT_EQ(account.total_bytes, 8 * kChargeUnit);
  EXPECT_TRUE(ledger.charge(ObjectType::kBuffer, 1, kWholeObject, kChargeUnit));
  ledger.clear();
  EXPECT_EQ(account.total_bytes, 8 * kChargeUnit);
}

TEST(AllocationSizes, ImagesStorageAndSamples) {
  note_texture_size_limit(INT64_MAX / 4);  // no GL limit: sizes saturate
  EXPECT_EQ(image_bytes(GL_RGBA, GL_RGBA, GL_UNSIGNED_BYTE, 64, 32, 1), 64 * 32 * 4);
  // An unsized format stored as the type says (OpenGL ES).
  EXPECT_EQ(image_bytes(GL_RGBA, GL_RGBA, GL_FLOAT, 8, 8, 1), 8 * 8 * 16);
  EXPECT_EQ(image_bytes(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, -1, 8, 1), kRefusedByGl);
  EXPECT_EQ(image_bytes(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, INT_MAX, INT_MAX, INT_MAX),
            kSaturatedBytes);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_2D, GL_RGBA8, 3, 4, 4, 1), (16 + 4 + 1) * 4);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_CUBE_MAP, GL_R8, 2, 2, 2, 1), 6 * (4 + 1));
  EXPECT_EQ(storage_bytes(GL_TEXTURE_2D_ARRAY, GL_R8, 2, 2, 2, 5), (4 + 1) * 5);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_3D, GL_R8, 2, 2, 2, 2), 8 + 1);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_1D_ARRAY, GL_R8, 2, 4, 3, 1), (4 + 2) * 3);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_2D, GL_RGBA8, 0, 4, 4, 1), kRefusedByGl);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_2D, GL_RGBA32F, 32, INT_MAX, INT_MAX, 1), kSaturatedBytes);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_2D, GL_COMPRESSED_RGBA8_ETC2_EAC, 1, 8, 8, 1), 64);
  EXPECT_EQ(multisample_bytes(GL_DEPTH24_STENCIL8, 4, 10, 10, 1), 4 * 4 * 100);
  EXPECT_EQ(multisample_bytes(GL_RGB565, 0, 10, 10, 1), 2 * 100);
  EXPECT_EQ(texel_bytes(0x12345678), 16);  // unknown: the widest texel
}

// A size GL surely refuses is GL's GL_INVALID_VALUE, not an allocation
// charged against the guest's limits.
TEST(AllocationSizes, SizesPastGlsLimitsAreGlsToRefuse) {
  note_texture_size_limit(16384);
  EXPECT_EQ(image_bytes(GL_RGBA8, 0, 0, 1 << 28, 1 << 28, 1), kPastGlLimits);
  EXPECT_EQ(storage_bytes(GL_TEXTURE_2D, GL_RGBA8, 1, 1 << 20, 4, 1), kPastGlLimits);
  EXPECT_EQ(multisample_bytes(GL_RGBA8, 4, 4, 1 << 20, 1), kPastGlLimits);
  EXPECT_EQ(image_bytes(GL_RGBA8, 0, 0, 16384, 16384, 1), int64_t{16384} * 16384 * 4);
  note_texture_size_limit(INT64_MAX / 4);  // as if no context had told
}

}  // namespace
}  // namespace host
