// The state-dependent payload sizes both sides rely on.
#include <gtest/gtest.h>

#include <cstdint>

#include "wire/sizes.h"

namespace {

using wire::size::PixelStore;
using wire::size::pixel_bytes;

constexpr uint32_t kRgba = 0x1908, kRgb = 0x1907, kUbyte = 0x1401, kFloat = 0x1406;
constexpr uint32_t kUshort565 = 0x8363, kDepthStencil = 0x84F9, kUint248 = 0x84FA;

TEST(PixelBytes, TightRowsNeedNoPadding) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, kRgba, kUbyte, 16, 8, 1), 16u * 8 * 4);
  EXPECT_EQ(pixel_bytes(PixelStore{}, kRgba, kFloat, 3, 2, 1), 3u * 2 * 16);
}

TEST(PixelBytes, RowsAlignToUnpackAlignment) {
  // 3 RGB texels = 9 bytes, padded to 12 for every row but the last.
  EXPECT_EQ(pixel_bytes(PixelStore{}, kRgb, kUbyte, 3, 2, 1), 12u + 9);
  PixelStore one;
  one.alignment = 1;
  EXPECT_EQ(pixel_bytes(one, kRgb, kUbyte, 3, 2, 1), 18u);
}

TEST(PixelBytes, RowLengthAndSkipsMoveTheLastTexel) {
  PixelStore s;
  s.row_length = 10;
  s.skip_rows = 2;
  s.skip_pixels = 1;
  // Last texel ends at ((2 + 4 - 1) rows * 40) + (1 + 4) * 4.
  EXPECT_EQ(pixel_bytes(s, kRgba, kUbyte, 4, 4, 1), 5u * 40 + 20);
}

TEST(PixelBytes, ImagesStackForVolumes) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, kRgba, kUbyte, 2, 2, 3), 3u * 2 * 2 * 4);
}

TEST(PixelBytes, PackedTypesAndEmptyImages) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, kRgb, kUshort565, 2, 1, 1), 4u);
  EXPECT_EQ(pixel_bytes(PixelStore{}, kDepthStencil, kUint248, 2, 2, 1), 16u);
  EXPECT_EQ(pixel_bytes(PixelStore{}, kRgba, kUbyte, 0, 5, 1), 0u);
  EXPECT_EQ(pixel_bytes(PixelStore{}, 0x1234, kUbyte, 4, 4, 1), 0u);
}

TEST(PixelBytes, HugeImagesSaturate) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, kRgba, kFloat, 1 << 30, 1 << 30, 1), SIZE_MAX);
}

TEST(PixelStoreState, TracksEachDirection) {
  PixelStore unpack, pack;
  EXPECT_TRUE(unpack.set(0x0CF5, 1, false));   // GL_UNPACK_ALIGNMENT
  EXPECT_FALSE(pack.set(0x0CF5, 1, true));
  EXPECT_TRUE(pack.set(0x0D02, 64, true));     // GL_PACK_ROW_LENGTH
  EXPECT_EQ(unpack.alignment, 1);
  EXPECT_EQ(pack.row_length, 64);
  EXPECT_EQ(pack.alignment, 4);
}

TEST(EnumCounts, MultiValuedQueries) {
  EXPECT_EQ(wire::size::pname_values(0x0BA2), 4u);   // GL_VIEWPORT
  EXPECT_EQ(wire::size::pname_values(0x0BA6), 16u);  // GL_MODELVIEW_MATRIX
  EXPECT_EQ(wire::size::pname_values(0x0B70), 2u);   // GL_DEPTH_RANGE
  EXPECT_EQ(wire::size::pname_values(0x0D33), 1u);   // GL_MAX_TEXTURE_SIZE
  EXPECT_EQ(wire::size::clear_buffer_values(0x1800), 4u);
  EXPECT_EQ(wire::size::clear_buffer_values(0x1801), 1u);
}

}  // namespace
