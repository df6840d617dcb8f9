// The end of every read-back: into the bound pack buffer, or a round trip
// whose reply's image is copied into the program's memory as its pack
// state lays it out.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "gl/entry_support.h"
#include "gl/debug_output.h"
#include "gl/gl_handlers.h"
#include "gl/legacy_arrays.h"
#include "gl/persistent_mappings.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {

namespace {

// Ends a read-back: into the bound pack buffer (no wait, no reply), or a
// round trip whose reply's image comes back (valid until the stream's next
// round trip). `dims`: the reply starts with the image's dimensions.
std::optional<std::span<const std::byte>> read_back_reply(Stream& s, uint32_t* dims = nullptr) {
  if (s.gl_state().pack_buffer_bound()) {
    s.commit();
    return std::nullopt;
  }
  auto reply = s.roundtrip();
  if (!reply) return std::nullopt;
  wire::Reader r(*reply, 0);
  if (dims) {
    auto d = r.get<uint32_t>();
    if (!d) return std::nullopt;
    *dims = *d;
  }
  auto data = r.get_data();
  if (!data) return std::nullopt;
  return std::span<const std::byte>(data->bytes);
}

}  // namespace

void finish_read_back(Stream& s, void* pixels, size_t capacity) {
  auto bytes = read_back_reply(s);
  const size_t n = bytes ? std::min(capacity, bytes->size()) : 0;
  if (pixels && n > 0) std::memcpy(pixels, bytes->data(), n);
}

void finish_image_read_back(Stream& s, void* pixels, size_t capacity, int dims,
                            GLenum format, GLenum type, int64_t width, int64_t height, int64_t depth) {
  uint32_t host_dims = 0;
  auto bytes = read_back_reply(s, dims == 0 ? &host_dims : nullptr);
  if (!bytes || !pixels) return;
  if (dims == 0) dims = static_cast<int>(host_dims);
  auto* out = static_cast<std::byte*>(pixels);
  const size_t have = std::min(capacity, bytes->size());
  for (const auto& run : wire::size::image_runs(s.gl_state().pack(), dims, format, type, width,
                                                height, depth)) {
    if (run.offset + run.bytes <= have) std::memcpy(out + run.offset, bytes->data() + run.offset, run.bytes);
  }
}

void finish_compressed_read_back(Stream& s, void* pixels, size_t capacity, int64_t width, int64_t height,
                                 int64_t depth) {
  uint32_t dims = 0;
  auto bytes = read_back_reply(s, &dims);
  if (!bytes || !pixels) return;
  auto* out = static_cast<std::byte*>(pixels);
  const size_t have = std::min(capacity, bytes->size());
  const wire::size::PixelStore& pack = s.gl_state().pack();
  if (!wire::size::compressed_layout(pack, static_cast<int>(dims), width, height, depth)) {
    std::memcpy(out, bytes->data(), have);  // tightly packed blocks
    return;
  }
  for (const auto& run : wire::size::compressed_runs(pack, static_cast<int>(dims), width, height, depth, have))
    std::memcpy(out + run.offset, bytes->data() + run.offset, std::min(run.bytes, have - run.offset));
}

void GLAPIENTRY handle_glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height,
                                    GLenum format, GLenum type, void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  const PackTarget to = pack_target(*s, pixels);
  wire::encode_glReadPixels(s->writer(), x, y, width, height, format, type, to.data, 0, to.in_buffer);
  finish_image_read_back(*s, pixels, SIZE_MAX, 2, format, type, width, height, 1);
}

void GLAPIENTRY handle_glReadnPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format,
                                     GLenum type, GLsizei buf_size, void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  const PackTarget to = pack_target(*s, pixels);
  wire::encode_glReadnPixels(s->writer(), x, y, width, height, format, type, buf_size, to.data, 0,
                             to.in_buffer);
  finish_image_read_back(*s, pixels, static_cast<size_t>(std::max(buf_size, 0)), 2, format, type,
                         width, height, 1);
}

void GLAPIENTRY handle_glGetPolygonStipple(GLubyte* mask) {
  Stream* s = current_stream();
  if (!s) return;
  constexpr GLenum kColorIndex = 0x1900, kBitmap = 0x1A00;
  const PackTarget to = pack_target(*s, mask);
  wire::encode_glGetPolygonStipple(s->writer(), to.data, 0, to.in_buffer);
  finish_image_read_back(*s, mask, SIZE_MAX, 2, kColorIndex, kBitmap, 32, 32, 1);
}

namespace {

// The robust forms: GL refuses a bufSize smaller than the stipple it would
// write into client memory (GL_INVALID_OPERATION, nothing written), and
// otherwise writes what glGetPolygonStipple writes, not bufSize bytes.
void get_n_polygon_stipple(GLsizei buf_size, GLubyte* pattern) {
  Stream* s = current_stream();
  if (!s) return;
  constexpr GLenum kColorIndex = 0x1900, kBitmap = 0x1A00, kInvalidOperation = 0x0502;
  if (!s->gl_state().pack_buffer_bound()) {
    const auto needed = wire::size::image_bytes(s->gl_state().pack(), 2, kColorIndex, kBitmap, 32, 32, 1);
    if (needed && static_cast<int64_t>(*needed) > buf_size) return s->gl_state().raise_error(kInvalidOperation);
  }
  handle_glGetPolygonStipple(pattern);
}

}  // namespace

void GLAPIENTRY handle_glGetnPolygonStipple(GLsizei buf_size, GLubyte* pattern) {
  get_n_polygon_stipple(buf_size, pattern);
}

void GLAPIENTRY handle_glGetnPolygonStippleARB(GLsizei buf_size, GLubyte* pattern) {
  get_n_polygon_stipple(buf_size, pattern);
}

namespace {

// The host knows the map's size; the program's buffer holds the map.
using PixelMapEncoder = void (*)(wire::Writer&, GLenum, const void*, size_t, bool);

void get_pixel_map(PixelMapEncoder encode, GLenum map, void* values) {
  Stream* s = current_stream();
  if (!s) return;
  const PackTarget to = pack_target(*s, values);
  encode(s->writer(), map, to.data, 0, to.in_buffer);
  finish_read_back(*s, values, SIZE_MAX);
}

// The robust forms: the map comes back whole. GL refuses a bufSize smaller
// than it (GL_INVALID_OPERATION, nothing written) and otherwise writes the
// map, not bufSize bytes.
void get_n_pixel_map(PixelMapEncoder encode, GLenum map, GLsizei buf_size, void* values) {
  Stream* s = current_stream();
  if (!s) return;
  if (s->gl_state().pack_buffer_bound()) return get_pixel_map(encode, map, values);
  constexpr GLenum kInvalidOperation = 0x0502;
  encode(s->writer(), map, nullptr, 0, false);
  wire::Reply_glGetPixelMapfv out;  // every glGetPixelMap*'s reply
  if (!await_reply(*s, out, wire::decode_reply_glGetPixelMapfv)) return;
  const auto& bytes = out.values.bytes;
  if (bytes.size() > static_cast<size_t>(std::max(buf_size, 0))) return s->gl_state().raise_error(kInvalidOperation);
  if (values && !bytes.empty()) std::memcpy(values, bytes.data(), bytes.size());
}

}  // namespace

void GLAPIENTRY handle_glGetPixelMapfv(GLenum map, GLfloat* values) {
  get_pixel_map(wire::encode_glGetPixelMapfv, map, values);
}

void GLAPIENTRY handle_glGetPixelMapuiv(GLenum map, GLuint* values) {
  get_pixel_map(wire::encode_glGetPixelMapuiv, map, values);
}

void GLAPIENTRY handle_glGetPixelMapusv(GLenum map, GLushort* values) {
  get_pixel_map(wire::encode_glGetPixelMapusv, map, values);
}

void GLAPIENTRY handle_glGetnPixelMapfv(GLenum map, GLsizei buf_size, GLfloat* values) {
  get_n_pixel_map(wire::encode_glGetPixelMapfv, map, buf_size, values);
}

void GLAPIENTRY handle_glGetnPixelMapuiv(GLenum map, GLsizei buf_size, GLuint* values) {
  get_n_pixel_map(wire::encode_glGetPixelMapuiv, map, buf_size, values);
}

void GLAPIENTRY handle_glGetnPixelMapusv(GLenum map, GLsizei buf_size, GLushort* values) {
  get_n_pixel_map(wire::encode_glGetPixelMapusv, map, buf_size, values);
}

void GLAPIENTRY handle_glGetnPixelMapfvARB(GLenum map, GLsizei buf_size, GLfloat* values) {
  get_n_pixel_map(wire::encode_glGetPixelMapfv, map, buf_size, values);
}

void GLAPIENTRY handle_glGetnPixelMapuivARB(GLenum map, GLsizei buf_size, GLuint* values) {
  get_n_pixel_map(wire::encode_glGetPixelMapuiv, map, buf_size, values);
}

void GLAPIENTRY handle_glGetnPixelMapusvARB(GLenum map, GLsizei buf_size, GLushort* values) {
  get_n_pixel_map(wire::encode_glGetPixelMapusv, map, buf_size, values);
}

}  // namespace icd
