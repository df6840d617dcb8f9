// State-dependent payload sizes (the registry's COMPSIZE), shared by the
// guest encoder and the host validator so both agree on every byte count.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wire::size {

// Room the host always provides for arrays whose length depends on an enum.
constexpr size_t kMaxEnumValues = 16;

constexpr size_t nonnegative(int64_t v) { return v < 0 ? 0 : static_cast<size_t>(v); }

// Values that glGet*/glTexParameter*-style calls read or write for `pname`
// (1 when unknown; the host pads to kMaxEnumValues anyway).
size_t pname_values(uint32_t pname);
// glClearBuffer*v: 4 for GL_COLOR, else 1.
size_t clear_buffer_values(uint32_t buffer);
// glGet*i_v: values of one indexed state item.
size_t indexed_values(uint32_t target);
// glViewportArrayv-style: count * 4 (the registry writes COMPSIZE(count)).
size_t quadruples(int32_t count);
// glGetActiveUniformsiv: one value per uniform.
size_t per_uniform(int32_t count);
// Bytes of one texel of `format`/`type` (glClearBufferData and friends).
size_t texel_bytes(uint32_t format, uint32_t type);
size_t bytes(int64_t size);
// glBitmap: bytes of a 1-bit image with rows padded to the unpack alignment 4.
size_t bitmap_bytes(int32_t width, int32_t height);
// glPolygonStipple: a 32x32 1-bit pattern.
size_t stipple_bytes();

// Pixel-store state (glPixelStorei) for one direction.
struct PixelStore {
  int32_t alignment = 4;
  int32_t row_length = 0;
  int32_t image_height = 0;
  int32_t skip_pixels = 0;
  int32_t skip_rows = 0;
  int32_t skip_images = 0;

  // Applies glPixelStorei(pname, value) when pname belongs to this
  // direction (`pack` selects GL_PACK_*); returns whether it did.
  bool set(uint32_t pname, int32_t value, bool pack);
};

// Components of a pixel format (GL_RGBA: 4), 0 when unknown.
int format_components(uint32_t format);
// Bytes per pixel of format/type, 0 when the pair is unknown.
size_t pixel_size(uint32_t format, uint32_t type);

// Bytes GL reads or writes for a width x height x depth image under `store`
// (OpenGL 4.6, 8.4.4.1). 0 for empty or unknown images; SIZE_MAX when it
// overflows, which no payload can satisfy.
size_t pixel_bytes(const PixelStore& store, uint32_t format, uint32_t type, int64_t width,
                   int64_t height, int64_t depth);

}  // namespace wire::size
