#include "gl/pixel_transfer.h"

#include <algorithm>
#include <string>

namespace host {
namespace {

struct StoreQuery {
  GLenum unpack, pack;
  int32_t wire::size::PixelStore::*field;
};

constexpr StoreQuery kStoreQueries[] = {
    {GL_UNPACK_ALIGNMENT, GL_PACK_ALIGNMENT, &wire::size::PixelStore::alignment},
    {GL_UNPACK_ROW_LENGTH, GL_PACK_ROW_LENGTH, &wire::size::PixelStore::row_length},
    {GL_UNPACK_SKIP_ROWS, GL_PACK_SKIP_ROWS, &wire::size::PixelStore::skip_rows},
    {GL_UNPACK_SKIP_PIXELS, GL_PACK_SKIP_PIXELS, &wire::size::PixelStore::skip_pixels},
    {GL_UNPACK_IMAGE_HEIGHT, GL_PACK_IMAGE_HEIGHT, &wire::size::PixelStore::image_height},
    {GL_UNPACK_SKIP_IMAGES, GL_PACK_SKIP_IMAGES, &wire::size::PixelStore::skip_images},
};
// Images of one or two dimensions use only the first four.
constexpr size_t kFlatQueries = 4;

// How many of the queries above the context takes, so that asking never
// raises an error the guest would see: desktop GL all six; OpenGL ES 3.0
// unpacks all six and packs the first four; OpenGL ES 2.0 only the
// alignment, plus rows and skips with EXT_unpack_subimage / NV_pack_subimage.
size_t queries_taken(GlContextState::Impl& st, bool pack) {
  if (!st.gles) return 6;
  if (st.version() >= 30) return pack ? 4 : 6;
  const char* subimage = pack ? "GL_NV_pack_subimage" : "GL_EXT_unpack_subimage";
  return epoxy_has_gl_extension(subimage) ? 4 : 1;
}

bool empty_image(int64_t width, int64_t height, int64_t depth) {
  return width <= 0 || height <= 0 || depth <= 0;
}

wire::Error short_pixels(size_t have, size_t need) {
  return wire::make_error(wire::Errc::kBadLength, "pixels: " + std::to_string(have) +
                                                      " bytes, needs " + std::to_string(need));
}

// A program's NULL where GL reads client pixels: null_data_zeros().
wire::Result<PixelSource> zero_pixels(GlContextState::Impl& st, size_t needed) {
  auto zeros = null_data_zeros(st, needed);
  if (!zeros) return zeros.error();
  return *zeros ? PixelSource{*zeros} : PixelSource{nullptr, true};  // GL_OUT_OF_MEMORY
}

}  // namespace

wire::size::PixelStore gl_pixel_store(GlContextState::Impl& st, bool pack, int dims) {
  wire::size::PixelStore store;
  size_t taken = queries_taken(st, pack);
  if (dims < 3) taken = std::min(taken, kFlatQueries);
  for (size_t i = 0; i < taken; ++i) {
    const StoreQuery& q = kStoreQueries[i];
    GLint value = store.*q.field;
    glGetIntegerv(pack ? q.pack : q.unpack, &value);
    store.*q.field = value;
  }
  return store;
}

void refuse_pixels(GlContextState::Impl& st, GLenum error) { refuse_call(st, error); }

wire::Result<PixelSource> input_pixels(GlContextState::Impl& st, const wire::Data& data,
                                       bool nullable, bool guest_format, int dims, GLenum format,
                                       GLenum type, int64_t width, int64_t height, int64_t depth) {
  if (!wire::size::known_pixels(format, type)) {
    // Every pair GL takes is sized here, so GL refuses this one too; where
    // no pixels are a valid argument (texture images) GL is given none and
    // raises the error it checks first (a bad internal format, say).
    if (nullable) return PixelSource{};
    refuse_pixels(st);
    return PixelSource{nullptr, true};
  }
  // Offsets and NULL read a bound unpack buffer; bytes travel inline or in the heap.
  const bool offset = data.kind == wire::DataKind::kBufferOffset;
  const bool bound = (offset || data.kind == wire::DataKind::kNull) &&
                     pixel_buffer_bound(st, GL_PIXEL_UNPACK_BUFFER_BINDING);
  if (offset && !bound) return wire::make_error(wire::Errc::kBadValue, "pixel offset without an unpack buffer");
  if (bound && guest_format && !wire::size::drawable_from_buffer(format)) {
    refuse_pixels(st, GL_INVALID_OPERATION);
    return PixelSource{nullptr, true};
  }
  if (offset) return PixelSource{reinterpret_cast<const void*>(static_cast<uintptr_t>(data.offset))};
  // GL is asked for the unpack state only where guest bytes are read.
  const bool empty = empty_image(width, height, depth);
  // NULL is an offset of 0 into a bound unpack buffer, which GL checks.
  if (data.kind == wire::DataKind::kNull && (empty || nullable || bound)) return PixelSource{};
  if (empty) return PixelSource{data.bytes.data()};
  const size_t needed = *wire::size::image_bytes(gl_pixel_store(st, false, dims), dims, format,
                                                 type, width, height, depth);
  if (data.kind == wire::DataKind::kNull) return zero_pixels(st, needed);
  if (data.bytes.size() < needed) return short_pixels(data.bytes.size(), needed);
  return PixelSource{data.bytes.data()};
}

wire::Result<OutBuffer> output_pixels(GlContextState::Impl& st, int dims, GLenum format,
                                      GLenum type, int64_t width, int64_t height, int64_t depth) {
  auto bytes = wire::size::image_bytes(gl_pixel_store(st, true, dims), dims, format, type, width,
                                       height, depth);
  if (!bytes) return wire::make_error(wire::Errc::kBadValue, "pixel format/type pair");
  if (*bytes > kMaxReplyArrayBytes) {
    return wire::make_error(wire::Errc::kLimit, "pixels to send back: " + std::to_string(*bytes));
  }
  if (!st.charge_reply(*bytes)) return OutBuffer{nullptr, 0, true};
  return OutBuffer{scratch(*bytes), *bytes};
}

}  // namespace host
