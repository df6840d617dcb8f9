#include "wire/sizes.h"

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
    {0x0B07, 4},   // GL_CURRENT_RASTER_POSITION
    {0x0B12, 2},   // GL_POINT_SIZE_RANGE
    {0x0B22, 2},   // GL_LINE_WIDTH_RANGE
    {0x0B40, 2},   // GL_POLYGON_MODE
    {0x0B53, 4},   // GL_LIGHT_MODEL_AMBIENT
    {0x0B66, 4},   // GL_FOG_COLOR
    {0x0B70, 2},   // GL_DEPTH_RANGE
    {0x0BA2, 4},   // GL_VIEWPORT
    {0x0BA6, 16},  // GL_MODELVIEW_MATRIX
    {0x0BA7, 16},  // GL_PROJECTION_MATRIX
    {0x0BA8, 16},  // GL_TEXTURE_MATRIX
    {0x0C10, 4},   // GL_SCISSOR_BOX
    {0x0C22, 4},   // GL_COLOR_CLEAR_VALUE
    {0x0C23, 4},   // GL_COLOR_WRITEMASK
    {0x0D3A, 2},   // GL_MAX_VIEWPORT_DIMS
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
    {0x8129, 3},   // GL_POINT_DISTANCE_ATTENUATION
    {0x846D, 2},   // GL_ALIASED_POINT_SIZE_RANGE
    {0x846E, 2},   // GL_ALIASED_LINE_WIDTH_RANGE
    {0x84E3, 16},  // GL_TRANSPOSE_MODELVIEW_MATRIX
    {0x84E4, 16},  // GL_TRANSPOSE_PROJECTION_MATRIX
    {0x84E5, 16},  // GL_TRANSPOSE_TEXTURE_MATRIX
    {0x84E6, 16},  // GL_TRANSPOSE_COLOR_MATRIX
    {0x8626, 4},   // GL_CURRENT_VERTEX_ATTRIB
    {0x8E46, 4},   // GL_TEXTURE_SWIZZLE_RGBA
    {0x8E50, 2},   // GL_SAMPLE_POSITION
    {0x92BE, 8},   // GL_PRIMITIVE_BOUNDING_BOX
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

size_t bitmap_bytes(int32_t width, int32_t height) {
  return ((nonnegative(width) + 31) / 32) * 4 * nonnegative(height);
}

size_t stipple_bytes() { return 32 * 32 / 8; }

bool PixelStore::set(uint32_t pname, int32_t value, bool pack) {
  // GL_UNPACK_* and GL_PACK_* differ by a fixed offset for the classic six.
  const uint32_t base = pack ? 0x0D00 : 0x0CF0;
  if (pname == base + 0x5) alignment = value;  // GL_{UN}PACK_ALIGNMENT
  else if (pname == base + 0x2) row_length = value;
  else if (pname == base + 0x3) skip_rows = value;
  else if (pname == base + 0x4) skip_pixels = value;
  else if (pname == (pack ? 0x806Cu : 0x806Eu)) image_height = value;
  else if (pname == (pack ? 0x806Bu : 0x806Du)) skip_images = value;
  else return false;
  return true;
}

int format_components(uint32_t format) {
  switch (format) {
    case 0x1900: case 0x1901: case 0x1902: case 0x1903: case 0x1904: case 0x1905:
    case 0x1906: case 0x1909: case 0x8D94: case 0x8D95: case 0x8D96: case 0x8D97:
      return 1;  // single channels, depth, stencil, luminance, *_INTEGER
    case 0x190A: case 0x8227: case 0x8228: case 0x84F9:
      return 2;  // LUMINANCE_ALPHA, RG, RG_INTEGER, DEPTH_STENCIL
    case 0x1907: case 0x80E0: case 0x8D98: case 0x8D9A:
      return 3;  // RGB, BGR
    case 0x1908: case 0x80E1: case 0x8D99: case 0x8D9B:
      return 4;  // RGBA, BGRA
    default:
      return 0;
  }
}

size_t pixel_size(uint32_t format, uint32_t type) {
  switch (type) {
    case 0x8032: case 0x8362:  // UNSIGNED_BYTE_3_3_2 (+REV)
      return 1;
    case 0x8033: case 0x8034: case 0x8363: case 0x8364: case 0x8365: case 0x8366:
      return 2;  // 4_4_4_4, 5_5_5_1, 5_6_5 and their REV forms
    case 0x8035: case 0x8036: case 0x8367: case 0x8368: case 0x84FA: case 0x8C3B:
    case 0x8C3E:
      return 4;  // 8_8_8_8, 10_10_10_2 (+REV), 24_8, 10F_11F_11F_REV, 5_9_9_9_REV
    case 0x8DAD:
      return 8;  // FLOAT_32_UNSIGNED_INT_24_8_REV
    default:
      break;
  }
  size_t component = 0;
  switch (type) {
    case 0x1400: case 0x1401: component = 1; break;            // BYTE, UNSIGNED_BYTE
    case 0x1402: case 0x1403: case 0x140B: case 0x8D61: component = 2; break;  // SHORT, HALF
    case 0x1404: case 0x1405: case 0x1406: component = 4; break;  // INT, UNSIGNED_INT, FLOAT
    default: return 0;
  }
  return component * static_cast<size_t>(format_components(format));
}

size_t pixel_bytes(const PixelStore& store, uint32_t format, uint32_t type, int64_t width,
                   int64_t height, int64_t depth) {
  if (width <= 0 || height <= 0 || depth <= 0) return 0;
  const auto psize = static_cast<int64_t>(pixel_size(format, type));
  if (psize == 0) return 0;
  auto clamp = [](int32_t v) { return v < 0 ? int64_t{0} : int64_t{v}; };
  const int64_t align = store.alignment == 1 || store.alignment == 2 || store.alignment == 8
                            ? store.alignment : 4;
  const int64_t row_pixels = store.row_length > 0 ? store.row_length : width;
  // Any overflow means no payload can be that large: saturate.
  bool overflow = false;
  auto mul = [&](int64_t a, int64_t b) {
    int64_t r = 0;
    overflow |= __builtin_mul_overflow(a, b, &r);
    return r;
  };
  auto add = [&](int64_t a, int64_t b) {
    int64_t r = 0;
    overflow |= __builtin_add_overflow(a, b, &r);
    return r;
  };
  const int64_t row = add(mul(row_pixels, psize), align - 1) / align * align;
  int64_t total = add(mul(add(clamp(store.skip_rows), height - 1), row),
                      mul(add(clamp(store.skip_pixels), width), psize));
  if (depth > 1) {
    const int64_t rows = store.image_height > 0 ? store.image_height : height;
    total = add(total, mul(mul(add(clamp(store.skip_images), depth - 1), rows), row));
  }
  return overflow ? SIZE_MAX : static_cast<size_t>(total);
}

}  // namespace wire::size
