#include "wire/sizes.h"

#include <algorithm>
#include <cstdint>

namespace wire::size {
namespace {

struct EnumCount {
  uint32_t value;
  uint8_t count;
};

// glGet*/parameter enums that carry more than one value.
constexpr EnumCount kMultiValued[] = {
    {0x0B00, 4},   // GL_CURRENT_COLOR
    {0x0B02, 3},   // GL_CURRENT_NORMAL
    {0x0B03, 4},   // GL_CURRENT_TEXTURE_COORDS
    {0x0B04, 4},   // GL_CURRENT_RASTER_COLOR
    {0x0B06, 4},   // GL_CURRENT_RASTER_TEXTURE_COORDS
    {0x0B07, 4},   // GL_CURRENT_RASTER_POSITION
    {0x0B12, 2},   // GL_POINT_SIZE_RANGE
    {0x0B22, 2},   // GL_LINE_WIDTH_RANGE
    {0x0B40, 2},   // GL_POLYGON_MODE
    {0x0B53, 4},   // GL_LIGHT_MODEL_AMBIENT
    {0x0B66, 4},   // GL_FOG_COLOR
    {0x0B70, 2},   // GL_DEPTH_RANGE
    {0x0B80, 4},   // GL_ACCUM_CLEAR_VALUE
    {0x0BA2, 4},   // GL_VIEWPORT
    {0x0BA6, 16},  // GL_MODELVIEW_MATRIX
    {0x0BA7, 16},  // GL_PROJECTION_MATRIX
    {0x0BA8, 16},  // GL_TEXTURE_MATRIX
    {0x0C10, 4},   // GL_SCISSOR_BOX
    {0x0C22, 4},   // GL_COLOR_CLEAR_VALUE
    {0x0C23, 4},   // GL_COLOR_WRITEMASK
    {0x0D3A, 2},   // GL_MAX_VIEWPORT_DIMS
    {0x0DD0, 2},   // GL_MAP1_GRID_DOMAIN
    {0x0DD2, 4},   // GL_MAP2_GRID_DOMAIN
    {0x0DD3, 2},   // GL_MAP2_GRID_SEGMENTS
    {0x1004, 4},   // GL_TEXTURE_BORDER_COLOR
    {0x1200, 4},   // GL_AMBIENT
    {0x1201, 4},   // GL_DIFFUSE
    {0x1202, 4},   // GL_SPECULAR
    {0x1203, 4},   // GL_POSITION
    {0x1204, 3},   // GL_SPOT_DIRECTION
    {0x1600, 4},   // GL_EMISSION
    {0x1602, 4},   // GL_AMBIENT_AND_DIFFUSE
    {0x1603, 3},   // GL_COLOR_INDEXES
    {0x2201, 4},   // GL_TEXTURE_ENV_COLOR
    {0x2501, 4},   // GL_OBJECT_PLANE
    {0x2502, 4},   // GL_EYE_PLANE
    {0x8005, 4},   // GL_BLEND_COLOR
    {0x80B1, 16},  // GL_COLOR_MATRIX
    {0x8129, 3},   // GL_POINT_DISTANCE_ATTENUATION
    {0x825D, 2},   // GL_VIEWPORT_BOUNDS_RANGE
    {0x8267, 3},   // GL_COMPUTE_WORK_GROUP_SIZE
    {0x8459, 4},   // GL_CURRENT_SECONDARY_COLOR
    {0x845F, 4},   // GL_CURRENT_RASTER_SECONDARY_COLOR
    {0x846D, 2},   // GL_ALIASED_POINT_SIZE_RANGE
    {0x846E, 2},   // GL_ALIASED_LINE_WIDTH_RANGE
    {0x84E3, 16},  // GL_TRANSPOSE_MODELVIEW_MATRIX
    {0x84E4, 16},  // GL_TRANSPOSE_PROJECTION_MATRIX
    {0x84E5, 16},  // GL_TRANSPOSE_TEXTURE_MATRIX
    {0x84E6, 16},  // GL_TRANSPOSE_COLOR_MATRIX
    {0x8626, 4},   // GL_CURRENT_VERTEX_ATTRIB
    {0x8641, 16},  // GL_CURRENT_MATRIX_ARB
    {0x888D, 4},   // GL_FLOAT_CLEAR_COLOR_VALUE_NV
    {0x8891, 2},   // GL_DEPTH_BOUNDS_EXT
    {0x88B7, 16},  // GL_TRANSPOSE_CURRENT_MATRIX_ARB
    {0x898D, 16},  // GL_MODELVIEW_MATRIX_FLOAT_AS_INT_BITS_OES
    {0x898E, 16},  // GL_PROJECTION_MATRIX_FLOAT_AS_INT_BITS_OES
    {0x898F, 16},  // GL_TEXTURE_MATRIX_FLOAT_AS_INT_BITS_OES
    {0x8B9D, 4},   // GL_TEXTURE_CROP_RECT_OES
    {0x8C3C, 4},   // GL_RGBA_SIGNED_COMPONENTS_EXT
    {0x8E46, 4},   // GL_TEXTURE_SWIZZLE_RGBA
    {0x8E50, 2},   // GL_SAMPLE_POSITION
    {0x8E73, 2},   // GL_PATCH_DEFAULT_INNER_LEVEL
    {0x8E74, 4},   // GL_PATCH_DEFAULT_OUTER_LEVEL
    {0x92BE, 8},   // GL_PRIMITIVE_BOUNDING_BOX
    {0x9381, 2},   // GL_MULTISAMPLE_LINE_WIDTH_RANGE_ARB
    {0x9597, 16},  // GL_DEVICE_UUID_EXT (bytes)
    {0x9598, 16},  // GL_DRIVER_UUID_EXT (bytes)
    {0x9599, 8},   // GL_DEVICE_LUID_EXT (bytes)
};

size_t lookup(uint32_t value) {
  for (const auto& e : kMultiValued) {
    if (e.value == value) return e.count;
  }
  return 1;
}

}  // namespace

size_t pname_values(uint32_t pname) { return lookup(pname); }

size_t clear_buffer_values(uint32_t buffer) {
  return buffer == 0x1800 /* GL_COLOR */ ? 4 : 1;
}

size_t indexed_values(uint32_t target) { return lookup(target); }

size_t quadruples(int32_t count) { return nonnegative(count) * 4; }

size_t per_uniform(int32_t count) { return nonnegative(count); }

size_t texel_bytes(uint32_t format, uint32_t type) { return pixel_size(format, type); }

size_t bytes(int64_t size) { return nonnegative(size); }

size_t vertex_type_bytes(uint32_t type) {
  switch (type) {
    case 0x1400: case 0x1401: return 1;                          // BYTE, UNSIGNED_BYTE
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: return 2;  // SHORT, HALF_FLOAT(_OES)
    case 0x140A: return 8;                                         // DOUBLE
    default: return 4;
  }
}

size_t list_name_bytes(uint32_t type) {
  switch (type) {
    case 0x1400: case 0x1401: return 1;                            // BYTE, UNSIGNED_BYTE
    case 0x1402: case 0x1403: case 0x1407: return 2;               // SHORT, UNSIGNED_SHORT, 2_BYTES
    case 0x1408: return 3;                                         // 3_BYTES
    case 0x1404: case 0x1405: case 0x1406: case 0x1409: return 4;  // INT, UNSIGNED_INT, FLOAT, 4_BYTES
    default: return 0;
  }
}

size_t index_bytes(int32_t count, uint32_t type) {
  const size_t each = type == 0x1401 ? 1 : type == 0x1403 ? 2 : type == 0x1405 ? 4 : 0;
  return nonnegative(count) * each;  // fits: 2^31 * 4
}

bool PixelStore::set(uint32_t pname, int32_t value, bool pack) {
  // GL_UNPACK_* and GL_PACK_* differ by a fixed offset for the classic six.
  const uint32_t base = pack ? 0x0D00 : 0x0CF0;
  int32_t* field = nullptr;
  if (pname == base + 0x5) field = &alignment;  // GL_{UN}PACK_ALIGNMENT
  else if (pname == base + 0x2) field = &row_length;
  else if (pname == base + 0x3) field = &skip_rows;
  else if (pname == base + 0x4) field = &skip_pixels;
  else if (pname == (pack ? 0x806Cu : 0x806Eu)) field = &image_height;
  else if (pname == (pack ? 0x806Bu : 0x806Du)) field = &skip_images;
  else if (pname == (pack ? 0x912Bu : 0x9127u)) field = &block_width;
  else if (pname == (pack ? 0x912Cu : 0x9128u)) field = &block_height;
  else if (pname == (pack ? 0x912Du : 0x9129u)) field = &block_depth;
  else if (pname == (pack ? 0x912Eu : 0x912Au)) field = &block_size;
  else return false;
  const bool valid = field == &alignment
                         ? value == 1 || value == 2 || value == 4 || value == 8
                         : value >= 0;
  if (valid) *field = value;
  return valid;
}

int32_t pixel_store_value(float value) {
  // Outside int32_t GL stores something it then refuses (negative) or
  // accepts as huge; both ends stay inside the type here.
  if (!(value > -2147483648.0f)) return INT32_MIN;
  if (value >= 2147483648.0f) return INT32_MAX;
  return static_cast<int32_t>(value < 0 ? value - 0.5f : value + 0.5f);
}

int format_components(uint32_t format) {
  switch (format) {
    case 0x1900: case 0x1901: case 0x1902: case 0x1903: case 0x1904: case 0x1905:
    case 0x1906: case 0x1909: case 0x8D94: case 0x8D95: case 0x8D96: case 0x8D97:
    case 0x8D9C:
      return 1;  // color index, stencil, depth, single channels, luminance, *_INTEGER
    case 0x190A: case 0x8227: case 0x8228: case 0x84F9: case 0x8D9D: case 0x8757:
      return 2;  // LUMINANCE_ALPHA(_INTEGER), RG(_INTEGER), DEPTH_STENCIL, YCBCR_MESA
    case 0x1907: case 0x80E0: case 0x8D98: case 0x8D9A: case 0x8C40:
      return 3;  // RGB, BGR (+_INTEGER), SRGB_EXT
    case 0x1908: case 0x80E1: case 0x8D99: case 0x8D9B: case 0x8000: case 0x8C42:
      return 4;  // RGBA, BGRA (+_INTEGER), ABGR_EXT, SRGB_ALPHA_EXT
    default:
      return 0;
  }
}

namespace {

// Bytes of a packed pixel type, 0 for another type.
size_t packed_size(uint32_t type) {
  switch (type) {
    case 0x8032: case 0x8362:  // UNSIGNED_BYTE_3_3_2 (+REV)
      return 1;
    case 0x8033: case 0x8034: case 0x8363: case 0x8364: case 0x8365: case 0x8366:
    case 0x85BA: case 0x85BB:
      return 2;  // 4_4_4_4, 5_5_5_1, 5_6_5, 8_8_MESA and their REV forms
    case 0x8035: case 0x8036: case 0x8367: case 0x8368: case 0x84FA: case 0x8C3B:
    case 0x8C3E:
      return 4;  // 8_8_8_8, 10_10_10_2 (+REV), 24_8, 10F_11F_11F_REV, 5_9_9_9_REV
    case 0x8DAD:
      return 8;  // FLOAT_32_UNSIGNED_INT_24_8_REV
    default:
      return 0;
  }
}

size_t component_size(uint32_t type) {
  switch (type) {
    case 0x1400: case 0x1401: return 1;                          // BYTE, UNSIGNED_BYTE
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: return 2;  // SHORT, HALF_FLOAT
    case 0x1404: case 0x1405: case 0x1406: return 4;               // INT, UNSIGNED_INT, FLOAT
    default: return 0;
  }
}

// GL also takes GL_STENCIL_INDEX bitmaps, but Mesa's llvmpipe prints a line
// per pixel for them (a guest could fill the host's log): not carried.
bool bitmap_pair(uint32_t format, uint32_t type) {
  return type == kBitmap && format == kColorIndex;
}

// Checked int64 arithmetic that remembers an overflow.
struct Checked {
  bool overflow = false;
  int64_t mul(int64_t a, int64_t b) {
    int64_t r = 0;
    overflow |= __builtin_mul_overflow(a, b, &r);
    return r;
  }
  int64_t add(int64_t a, int64_t b) {
    int64_t r = 0;
    overflow |= __builtin_add_overflow(a, b, &r);
    return r;
  }
};

}  // namespace

size_t pixel_size(uint32_t format, uint32_t type) {
  if (format_components(format) == 0) return 0;
  if (const size_t packed = packed_size(type)) return packed;
  return component_size(type) * static_cast<size_t>(format_components(format));
}

bool known_pixels(uint32_t format, uint32_t type) {
  return pixel_size(format, type) != 0 || bitmap_pair(format, type);
}

namespace {

// Where an image's bytes lie under the pixel-store state (OpenGL 4.6,
// 8.4.4.1 and 18.2.3): the stride of a row (padded) and of an image, where a
// row's first pixel starts and how many bytes of the row GL uses, and the
// rows and images skipped. For a known pair and a non-empty image.
struct Layout {
  int64_t row = 0, image = 0, first = 0, used = 0, skip_rows = 0, skip_images = 0;
  bool overflow = false;
};

Layout layout_of(const PixelStore& store, int dims, uint32_t format, uint32_t type, int64_t width,
                 int64_t height) {
  // Values GL refuses never reach its state; sizes from such a state are
  // those of the defaults.
  const int64_t align = store.alignment == 1 || store.alignment == 2 || store.alignment == 8
                            ? store.alignment : 4;
  auto at_least_0 = [](int32_t v) { return v < 0 ? int64_t{0} : int64_t{v}; };
  const int64_t row_pixels = store.row_length > 0 ? store.row_length : width;
  const int64_t skip_pixels = at_least_0(store.skip_pixels);
  Checked c;
  Layout l;
  if (type == kBitmap) {
    // Rows of bits, padded to whole `align`-byte units.
    l.row = c.mul(c.add(row_pixels, 8 * align - 1) / (8 * align), align);
    l.first = skip_pixels / 8;
    l.used = c.add(c.add(skip_pixels, width), 7) / 8 - l.first;
  } else {
    const auto psize = static_cast<int64_t>(pixel_size(format, type));
    l.row = c.add(c.mul(row_pixels, psize), align - 1) / align * align;
    l.first = c.mul(skip_pixels, psize);
    l.used = c.mul(width, psize);
  }
  l.skip_rows = at_least_0(store.skip_rows);
  if (dims == 3) {
    l.image = c.mul(store.image_height > 0 ? store.image_height : height, l.row);
    l.skip_images = at_least_0(store.skip_images);
  }
  l.overflow = c.overflow;
  return l;
}

}  // namespace

std::optional<size_t> image_bytes(const PixelStore& store, int dims, uint32_t format,
                                  uint32_t type, int64_t width, int64_t height, int64_t depth) {
  if (!known_pixels(format, type)) return std::nullopt;
  if (width <= 0 || height <= 0 || depth <= 0) return 0;
  const Layout l = layout_of(store, dims, format, type, width, height);
  Checked c;
  int64_t total = c.add(c.mul(c.add(l.skip_rows, height - 1), l.row), c.add(l.first, l.used));
  if (dims == 3) total = c.add(total, c.mul(c.add(l.skip_images, depth - 1), l.image));
  return l.overflow || c.overflow ? SIZE_MAX : static_cast<size_t>(total);
}

std::vector<Run> image_runs(const PixelStore& store, int dims, uint32_t format, uint32_t type,
                            int64_t width, int64_t height, int64_t depth) {
  auto whole = image_bytes(store, dims, format, type, width, height, depth);
  if (!whole || *whole == 0 || *whole == SIZE_MAX) return {};  // nothing, or nothing to hold it
  const Layout l = layout_of(store, dims, format, type, width, height);
  std::vector<Run> runs;
  const int64_t images = dims == 3 ? depth : 1;
  for (int64_t z = 0; z < images; ++z) {
    for (int64_t y = 0; y < height; ++y) {
      const int64_t at = (l.skip_images + z) * l.image + (l.skip_rows + y) * l.row + l.first;
      runs.push_back({static_cast<size_t>(at), static_cast<size_t>(l.used)});
    }
  }
  return runs;
}

std::optional<CompressedLayout> compressed_layout(const PixelStore& store, int dims, int64_t width,
                                                 int64_t height, int64_t depth) {
  const int64_t bw = store.block_width, bs = store.block_size;
  const int64_t bh = dims >= 2 ? store.block_height : 1;
  if (bw <= 0 || bs <= 0 || bh <= 0 || width <= 0 || height <= 0 || depth <= 0) return std::nullopt;
  const int64_t bd = dims >= 3 ? std::max(store.block_depth, 0) : 0;
  auto blocks = [](int64_t texels, int64_t block) { return (texels + block - 1) / block; };
  auto at_least_0 = [](int32_t v) { return int64_t{std::max(v, 0)}; };
  Checked c;
  CompressedLayout l;
  l.row = c.mul(blocks(store.row_length > 0 ? store.row_length : width, bw), bs);
  l.used = c.mul(blocks(width, bw), bs);
  l.rows = dims >= 2 ? blocks(height, bh) : 1;
  const int64_t slice_rows = dims >= 2 && store.image_height > 0 ? blocks(store.image_height, bh) : l.rows;
  l.slice = c.mul(slice_rows, l.row);
  l.slices = dims >= 3 ? depth : 1;
  l.skip = c.add(c.mul(at_least_0(store.skip_pixels), bs) / bw,
                 dims >= 2 ? c.mul(at_least_0(store.skip_rows), l.row) / bh : 0);
  if (bd > 0) l.skip = c.add(l.skip, c.mul(at_least_0(store.skip_images), l.slice) / bd);
  if (c.overflow) return std::nullopt;
  return l;
}

std::vector<Run> compressed_runs(const PixelStore& store, int dims, int64_t width, int64_t height,
                                 int64_t depth, size_t limit) {
  std::vector<Run> runs;
  const auto l = compressed_layout(store, dims, width, height, depth);
  if (!l) return runs;
  // Rows of blocks follow one another: the first at or past `limit` ends the list.
  for (int64_t z = 0; z < l->slices; ++z) {
    for (int64_t y = 0; y < l->rows; ++y) {
      Checked c;
      const int64_t at = c.add(l->skip, c.add(c.mul(z, l->slice), c.mul(y, l->row)));
      if (c.overflow || static_cast<uint64_t>(at) >= limit) return runs;
      runs.push_back({static_cast<size_t>(at), static_cast<size_t>(l->used)});
    }
  }
  return runs;
}

bool readable_pixels(uint32_t format, uint32_t type) {
  return format != kColorIndex && format != 0x8757 /* YCBCR_MESA */ && known_pixels(format, type);
}

bool drawable_from_buffer(uint32_t format) { return format != kColorIndex; }

size_t pixel_bytes(const PixelStore& store, int dims, uint32_t format, uint32_t type,
                   int64_t width, int64_t height, int64_t depth) {
  return image_bytes(store, dims, format, type, width, height, depth).value_or(0);
}

}  // namespace wire::size
