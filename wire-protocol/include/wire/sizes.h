// State-dependent payload sizes (the registry's COMPSIZE), shared by the
// guest encoder and the host validator so both agree on every byte count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace wire::size {

// Room the host always provides for arrays whose length depends on an enum.
constexpr size_t kMaxEnumValues = 16;

// Format and type of the 1-bit images glBitmap and glPolygonStipple take.
constexpr uint32_t kColorIndex = 0x1900;
constexpr uint32_t kBitmap = 0x1A00;

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
// Bytes of `count` indices of `type` (GL_UNSIGNED_BYTE/SHORT/INT), 0 for
// another type, which GL refuses before reading any index.
size_t index_bytes(int32_t count, uint32_t type);
// Bytes of one component of a vertex array of `type` (GL_BYTE ... GL_DOUBLE,
// GL_HALF_FLOAT and ES's GL_HALF_FLOAT_OES); 4 for the rest: int, float,
// fixed, and the packed types, whose one "component" is the whole vertex.
size_t vertex_type_bytes(uint32_t type);
// Bytes of one list name glCallLists reads for `type` (0: GL_INVALID_ENUM).
size_t list_name_bytes(uint32_t type);

// Pixel-store state (glPixelStore*) for one direction: the parts that
// decide how many bytes a transfer covers.
struct PixelStore {
  int32_t alignment = 4;
  int32_t row_length = 0;
  int32_t image_height = 0;
  int32_t skip_pixels = 0;
  int32_t skip_rows = 0;
  int32_t skip_images = 0;
  // GL_{UN}PACK_COMPRESSED_BLOCK_*: how compressed images are laid out
  // (OpenGL 4.2); unused while the width or the size is 0.
  int32_t block_width = 0;
  int32_t block_height = 0;
  int32_t block_depth = 0;
  int32_t block_size = 0;

  // Applies glPixelStorei(pname, value) when pname is one of these for this
  // direction (`pack` selects GL_PACK_*) and GL accepts the value (OpenGL
  // 4.6, 8.4.1: an alignment other than 1, 2, 4, 8 or a negative value is
  // GL_INVALID_VALUE and changes nothing); returns whether it did.
  bool set(uint32_t pname, int32_t value, bool pack);
};

// The integer glPixelStoref stores (rounded to the nearest, as GL does).
int32_t pixel_store_value(float value);

// Components of a pixel format (GL_RGBA: 4), 0 when unknown.
int format_components(uint32_t format);
// Bytes per pixel of format/type, 0 when the pair is unknown or is the
// 1-bit GL_BITMAP type.
size_t pixel_size(uint32_t format, uint32_t type);
// Whether image_bytes knows the pair (every pair GL takes but GL_STENCIL_INDEX
// with GL_BITMAP, which the host refuses).
bool known_pixels(uint32_t format, uint32_t type);
// Whether glReadPixels may run with a pair it knows: not GL_COLOR_INDEX,
// which RGBA framebuffers do not have (OpenGL 4.6 compatibility, 18.2.2:
// GL_INVALID_OPERATION) and which Mesa's llvmpipe takes anyway, to crash or,
// for GL_BITMAP, to write up to 4 bytes past the image (a pack buffer's too);
// nor GL_YCBCR_MESA, a texture upload format llvmpipe cannot read back.
bool readable_pixels(uint32_t format, uint32_t type);
// Whether glDrawPixels (or any upload whose format the guest chooses) may
// read images of `format` from a pixel unpack buffer: not GL_COLOR_INDEX,
// whose rows Mesa's llvmpipe reads from a buffer with the wrong stride, past
// the buffer's end. glBitmap and stipples from a buffer are not affected.
bool drawable_from_buffer(uint32_t format);

// Bytes GL reads or writes for a width x height x depth image of `dims`
// dimensions (1, 2 or 3; only 3 uses the image height and skipped images)
// under `store` (OpenGL 4.6, 8.4.4.1 and 18.2.3; from the first byte to
// the end of the last pixel). 0 for empty images; SIZE_MAX when it
// overflows, which no payload can satisfy; nullopt for a format/type pair
// it does not know, which the host refuses.
std::optional<size_t> image_bytes(const PixelStore& store, int dims, uint32_t format,
                                  uint32_t type, int64_t width, int64_t height, int64_t depth);
// The bytes GL writes for such an image, row by row: each run's offset from
// the start and its length (whole bytes of a bitmap row). What lies between
// runs (skipped pixels, rows and images, row padding) GL leaves alone.
struct Run {
  size_t offset;
  size_t bytes;
};
std::vector<Run> image_runs(const PixelStore& store, int dims, uint32_t format, uint32_t type,
                            int64_t width, int64_t height, int64_t depth);
// Where GL writes a compressed region read back under the pack state's
// block layout (OpenGL 4.2 compressed pixel storage, laid out as Mesa
// does): rows of `used` bytes `row` apart, `rows` of them in each of
// `slices` slices `slice` apart, after `skip`. None while the layout is
// unset (a block width, height where rows exist, or size of 0): GL then
// writes the blocks tightly packed.
struct CompressedLayout {
  int64_t skip = 0, row = 0, used = 0, rows = 0, slice = 0, slices = 0;
};
std::optional<CompressedLayout> compressed_layout(const PixelStore& store, int dims, int64_t width,
                                                 int64_t height, int64_t depth);
// The layout's runs, as image_runs(); empty when it is unset. Runs from
// `limit` on (past the bytes at hand) are left out.
std::vector<Run> compressed_runs(const PixelStore& store, int dims, int64_t width, int64_t height,
                                 int64_t depth, size_t limit);
// image_bytes for encoders: 0 for an unknown pair (the host refuses the
// command whatever comes with it).
size_t pixel_bytes(const PixelStore& store, int dims, uint32_t format, uint32_t type,
                   int64_t width, int64_t height, int64_t depth);

}  // namespace wire::size
