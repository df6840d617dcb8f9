// The state-dependent payload sizes both sides rely on.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>

#include "wire/sizes.h"

namespace {

using namespace wire::size;  // the sizes under test

constexpr uint32_t kRgba = 0x1908, kRgb = 0x1907, kUbyte = 0x1401, kFloat = 0x1406;
constexpr uint32_t kUshort565 = 0x8363, kDepthStencil = 0x84F9, kUint248 = 0x84FA;

TEST(PixelBytes, TightRowsNeedNoPadding) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kRgba, kUbyte, 16, 8, 1), 16u * 8 * 4);
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kRgba, kFloat, 3, 2, 1), 3u * 2 * 16);
}

TEST(PixelBytes, RowsAlignToUnpackAlignment) {
  // 3 RGB texels = 9 bytes, padded to 12 for every row but the last.
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kRgb, kUbyte, 3, 2, 1), 12u + 9);
  PixelStore one;
  one.alignment = 1;
  EXPECT_EQ(pixel_bytes(one, 2, kRgb, kUbyte, 3, 2, 1), 18u);
}

TEST(PixelBytes, RowLengthAndSkipsMoveTheLastTexel) {
  PixelStore s;
  s.row_length = 10;
  s.skip_rows = 2;
  s.skip_pixels = 1;
  // Last texel ends at ((2 + 4 - 1) rows * 40) + (1 + 4) * 4.
  EXPECT_EQ(pixel_bytes(s, 2, kRgba, kUbyte, 4, 4, 1), 5u * 40 + 20);
}

TEST(PixelBytes, ImagesStackForVolumes) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, 3, kRgba, kUbyte, 2, 2, 3), 3u * 2 * 2 * 4);
}

TEST(PixelBytes, PackedTypesAndEmptyImages) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kRgb, kUshort565, 2, 1, 1), 4u);
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kDepthStencil, kUint248, 2, 2, 1), 16u);
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kRgba, kUbyte, 0, 5, 1), 0u);
}

TEST(PixelBytes, UnknownPairsAreNotSizedAtAll) {
  EXPECT_EQ(image_bytes(PixelStore{}, 2, 0x1234, kUbyte, 4, 4, 1), std::nullopt);
  EXPECT_EQ(image_bytes(PixelStore{}, 2, kRgba, 0x1234, 4, 4, 1), std::nullopt);
  // An unknown format with a packed type is unknown too.
  EXPECT_EQ(image_bytes(PixelStore{}, 2, 0x1234, kUshort565, 4, 4, 1), std::nullopt);
  // GL_BITMAP only goes with color and stencil indices.
  EXPECT_EQ(image_bytes(PixelStore{}, 2, kRgba, kBitmap, 4, 4, 1), std::nullopt);
  EXPECT_EQ(image_bytes(PixelStore{}, 2, kRgba, kUbyte, 0, 4, 1), 0u);
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, 0x1234, kUbyte, 4, 4, 1), 0u);
  EXPECT_EQ(image_bytes(PixelStore{}, 2, 0x8000 /* GL_ABGR_EXT */, kUbyte, 2, 2, 1), 16u);
}

TEST(PixelBytes, OnlyVolumesSkipImages) {
  PixelStore s;
  s.skip_images = 2;
  s.image_height = 5;
  EXPECT_EQ(pixel_bytes(s, 2, kRgba, kUbyte, 2, 2, 1), 16u);
  // A volume of depth 1 still starts two images of 5 rows in.
  EXPECT_EQ(pixel_bytes(s, 3, kRgba, kUbyte, 2, 2, 1), 2u * 5 * 8 + 16);
}

TEST(PixelBytes, BitmapsArePaddedBitRows) {
  // 32x32 stipple: 4 bytes a row.
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kColorIndex, kBitmap, 32, 32, 1), 128u);
  PixelStore s;
  s.alignment = 8;
  s.skip_rows = 1;
  s.skip_pixels = 7;
  // Rows of 8 bytes; the last row uses bits 7..39, so 5 bytes.
  EXPECT_EQ(pixel_bytes(s, 2, kColorIndex, kBitmap, 33, 2, 1), 2u * 8 + 5);
  s.row_length = 100;  // 100 bits: 13 bytes, padded to 16
  EXPECT_EQ(pixel_bytes(s, 2, kColorIndex, kBitmap, 33, 2, 1), 2u * 16 + 5);
}

TEST(PixelBytes, HugeImagesSaturate) {
  EXPECT_EQ(pixel_bytes(PixelStore{}, 2, kRgba, kFloat, 1 << 30, 1 << 30, 1), SIZE_MAX);
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

TEST(PixelStoreState, ValuesGlRefusesChangeNothing) {
  PixelStore s;
  EXPECT_FALSE(s.set(0x0CF2, -1, false));  // negative GL_UNPACK_ROW_LENGTH
  EXPECT_FALSE(s.set(0x0CF5, 3, false));   // alignment 3
  EXPECT_FALSE(s.set(0x0CF5, 0, false));
  EXPECT_EQ(s.row_length, 0);
  EXPECT_EQ(s.alignment, 4);
  EXPECT_TRUE(s.set(0x0CF5, 8, false));
  EXPECT_EQ(s.alignment, 8);
}

TEST(PixelStoreState, FloatValuesRoundToNearest) {
  EXPECT_EQ(wire::size::pixel_store_value(63.6f), 64);
  EXPECT_EQ(wire::size::pixel_store_value(2.4f), 2);
  EXPECT_EQ(wire::size::pixel_store_value(-0.6f), -1);
  EXPECT_EQ(wire::size::pixel_store_value(1e20f), INT32_MAX);
  EXPECT_EQ(wire::size::pixel_store_value(-1e20f), INT32_MIN);
}

TEST(IndexBytes, EachIndexType) {
  EXPECT_EQ(wire::size::index_bytes(6, 0x1401), 6u);
  EXPECT_EQ(wire::size::index_bytes(6, 0x1403), 12u);
  EXPECT_EQ(wire::size::index_bytes(6, 0x1405), 24u);
  EXPECT_EQ(wire::size::index_bytes(6, 0x1406), 0u);  // GL_FLOAT: GL refuses
  EXPECT_EQ(wire::size::index_bytes(-1, 0x1405), 0u);
}

// One size per type for guest and host: ES's GL_HALF_FLOAT_OES is two bytes
// as GL_HALF_FLOAT is (the host once counted four and refused valid draws).
TEST(VertexTypeBytes, EachArrayType) {
  EXPECT_EQ(wire::size::vertex_type_bytes(0x1401), 1u);  // GL_UNSIGNED_BYTE
  EXPECT_EQ(wire::size::vertex_type_bytes(0x140B), 2u);  // GL_HALF_FLOAT
  EXPECT_EQ(wire::size::vertex_type_bytes(0x8D61), 2u);  // GL_HALF_FLOAT_OES
  EXPECT_EQ(wire::size::vertex_type_bytes(0x1406), 4u);  // GL_FLOAT
  EXPECT_EQ(wire::size::vertex_type_bytes(0x140A), 8u);  // GL_DOUBLE
  EXPECT_EQ(wire::size::vertex_type_bytes(0x8368), 4u);  // GL_UNSIGNED_INT_2_10_10_10_REV: the vertex
}

TEST(ListNameBytes, EachNameType) {
  EXPECT_EQ(wire::size::list_name_bytes(0x1408), 3u);  // GL_3_BYTES
  EXPECT_EQ(wire::size::list_name_bytes(0x1409), 4u);  // GL_4_BYTES
  EXPECT_EQ(wire::size::list_name_bytes(0x140A), 0u);  // GL_DOUBLE: GL_INVALID_ENUM
}

// A quadrant of an 8x8 DXT5 image (4x4 blocks of 16 bytes) read back into
// the whole image's layout: one row of blocks, skipped to its place; the
// rest of the program's image is not written.
TEST(CompressedLayout, QuadrantOfAnImage) {
  wire::size::PixelStore store;
  ASSERT_TRUE(store.set(0x912B, 4, true));   // GL_PACK_COMPRESSED_BLOCK_WIDTH
  ASSERT_TRUE(store.set(0x912C, 4, true));   // _HEIGHT
  ASSERT_TRUE(store.set(0x912E, 16, true));  // _SIZE
  store.row_length = 8;
  store.skip_pixels = 4;
  store.skip_rows = 4;
  const auto runs = wire::size::compressed_runs(store, 2, 4, 4, 1, SIZE_MAX);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].offset, 16u + 32u);  // one block across, one row of two blocks down
  EXPECT_EQ(runs[0].bytes, 16u);
  // Six cube faces: one run a face, each a slice of the image's rows.
  const auto faces = wire::size::compressed_runs(store, 3, 4, 4, 6, SIZE_MAX);
  ASSERT_EQ(faces.size(), 6u);
  EXPECT_EQ(faces[1].offset - faces[0].offset, 32u);
  // Runs past the bytes at hand are left out; no layout without a block size.
  EXPECT_EQ(wire::size::compressed_runs(store, 3, 4, 4, 6, 100).size(), 2u);
  store.block_size = 0;
  EXPECT_FALSE(wire::size::compressed_layout(store, 2, 4, 4, 1));
}

TEST(EnumCounts, MultiValuedQueries) {
  EXPECT_EQ(wire::size::pname_values(0x0BA2), 4u);   // GL_VIEWPORT
  EXPECT_EQ(wire::size::pname_values(0x0BA6), 16u);  // GL_MODELVIEW_MATRIX
  EXPECT_EQ(wire::size::pname_values(0x0B70), 2u);   // GL_DEPTH_RANGE
  EXPECT_EQ(wire::size::pname_values(0x8C3C), 4u);   // GL_RGBA_SIGNED_COMPONENTS_EXT
  EXPECT_EQ(wire::size::pname_values(0x0D33), 1u);   // GL_MAX_TEXTURE_SIZE
  EXPECT_EQ(wire::size::clear_buffer_values(0x1800), 4u);
  EXPECT_EQ(wire::size::clear_buffer_values(0x1801), 1u);
}

}  // namespace
