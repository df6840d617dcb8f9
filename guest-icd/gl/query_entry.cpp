// Queries the guest answers from its own state or from answers it fetched
// once per context; the rest ask the host (a round trip).
// Wire layouts: host-renderer/gl/query_handlers.cpp and state_handlers.cpp.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <vector>
#include <optional>

#include "gl/entry_support.h"
#include "gl/debug_output.h"
#include "gl/gl_handlers.h"
#include "gl/legacy_arrays.h"
#include "gl/persistent_mappings.h"
#include "wire/context_strings.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

constexpr GLenum kVersion = 0x1F02;
constexpr GLenum kExtensions = 0x1F03;
constexpr GLenum kNumExtensions = 0x821D;
constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501;

// Values that cannot change during a context's life (limits, versions).
bool immutable_pname(GLenum pname) {
  static constexpr GLenum kImmutable[] = {
      0x0D33, 0x0D3A, 0x0D50, 0x8869, 0x8872, 0x8B4D, 0x8B4C, 0x851C, 0x84E8, 0x8DFB, 0x8DFD,
      0x8DFC, 0x8073, 0x88FF, 0x8D57, 0x8CDF, 0x8824, 0x80E8, 0x80E9, 0x84FF, 0x8A2F, 0x8A30,
      0x8A34, 0x821B, 0x821C, 0x86A2, 0x86A3, 0x8DF9, 0x87FE, 0x846E, 0x846D, 0x84FD, 0x8B49,
      0x8B4A, 0x8B4B, 0x9122, 0x9125, 0x9126, 0x821E, 0x8B8C, 0x8DF8, 0x87FF,
  };
  for (GLenum p : kImmutable) {
    if (p == pname) return true;
  }
  return false;
}

bool cache_disabled() {
  static const bool off = std::getenv("CONDUIT_NO_QUERY_CACHE") != nullptr;
  return off;
}

const std::string* fetch_string(Stream& s, GLenum name, GLuint index, bool indexed) {
  auto& cache = s.gl_state().string_cache();
  const uint64_t key = (uint64_t{indexed} << 63) | (uint64_t{index} << 32) | name;
  auto it = cache.find(key);
  if (it != cache.end() && !cache_disabled()) return &it->second;
  if (indexed) {
    wire::encode_glGetStringi(s.writer(), name, index);
  } else {
    wire::encode_glGetString(s.writer(), name);
  }
  auto reply = s.roundtrip();
  if (!reply) return nullptr;
  wire::Reader r(*reply, 0);
  auto data = r.get_data();
  if (!data || data->bytes.empty()) return nullptr;
  std::string text(reinterpret_cast<const char*>(data->bytes.data()), data->bytes.size() - 1);
  return &(cache[key] = std::move(text));
}

// The context's strings fetched together, unless the query cache is off.
const wire::ContextStrings* shared_strings(Stream& s) { return cache_disabled() ? nullptr : s.context_strings(); }

// glGetString's answer from the context's strings: null where GL refused
// the name; nullopt where they do not carry it (the host is asked).
std::optional<const std::string*> carried_string(Stream& s, GLenum name) {
  const wire::ContextStrings* strings = shared_strings(s);
  if (!strings) return std::nullopt;
  for (size_t i = 0; i < wire::kContextStringNames.size(); ++i) {
    if (wire::kContextStringNames[i] != name) continue;
    return strings->named[i] ? &*strings->named[i] : nullptr;
  }
  return std::nullopt;
}

// glGetString's answer as the host's driver gives it; null where GL refuses
// the name (GL_INVALID_ENUM raised here, or waiting on the host).
const std::string* context_string(Stream& s, GLenum name) {
  if (auto carried = carried_string(s, name)) {
    if (!*carried) s.gl_state().raise_error(kInvalidEnum);
    return *carried;
  }
  return fetch_string(s, name, 0, false);
}

// Asks the host for a state value; true when it answered.
template <typename T>
bool host_values(Stream& s, wire::GlOp op, GLenum pname, T* out, bool cache) {
  size_t cmd = begin(s, op);
  s.writer().put(static_cast<uint32_t>(pname));
  auto reply = finish_and_wait(s, cmd);
  if (!reply) return false;
  wire::Reader r(*reply, 0);
  auto data = r.get_data();
  if (!data) return false;
  // The host sends exactly the values this pname has.
  std::memcpy(out, data->bytes.data(), data->bytes.size());
  if (cache && immutable_pname(pname) && !cache_disabled()) {
    const uint64_t key = (uint64_t{sizeof(T)} << 32) | pname;
    s.gl_state().get_cache()[key].assign(data->bytes.begin(), data->bytes.end());
  }
  return true;
}

// Whether the context lists extensions one by one (OpenGL and OpenGL ES 3.0
// and later): core profiles have no single extension string, and asking
// for it would leave GL_INVALID_ENUM for the program to find.
bool indexed_extensions(Stream& s) {
  if (const wire::ContextStrings* strings = shared_strings(s)) return strings->indexed;
  const std::string* version = fetch_string(s, kVersion, 0, false);
  if (!version) return false;
  const char* number = version->c_str();
  if (version->rfind("OpenGL ES", 0) == 0) number += version->find_first_of("0123456789");
  return std::atoi(number) >= 3;
}

std::vector<std::string> split_extensions(const std::string& flat) {
  std::vector<std::string> all;
  std::istringstream in(flat);
  for (std::string e; in >> e;) all.push_back(e);
  return all;
}

// The host's extensions as GL lists them: from the context's strings, else
// asked one by one.
std::vector<std::string> host_extensions(Stream& s) {
  if (const wire::ContextStrings* strings = shared_strings(s)) {
    if (strings->indexed) return strings->extensions;
    const std::string* flat = *carried_string(s, kExtensions);
    return flat ? split_extensions(*flat) : std::vector<std::string>{};
  }
  std::vector<std::string> all;
  if (indexed_extensions(s)) {
    GLint n = 0;
    host_values(s, wire::GlOp::glGetIntegerv, kNumExtensions, &n, false);
    for (GLint i = 0; i < n; ++i) {
      if (const std::string* e = fetch_string(s, kExtensions, static_cast<GLuint>(i), true)) {
        all.push_back(*e);
      }
    }
  } else if (const std::string* flat = fetch_string(s, kExtensions, 0, false)) {
    all = split_extensions(*flat);
  }
  return all;
}

// The host's extensions minus those whose commands Conduit does not carry.
const std::vector<std::string>& extension_list(Stream& s) {
  auto& list = s.gl_state().extensions();
  if (!list.empty()) return list;
  std::vector<std::string> all = host_extensions(s);
  const GlState& st = s.gl_state();
  const wire::GlApi api = !st.gles() ? wire::GlApi::kGl : st.major() < 2 ? wire::GlApi::kGles1 : wire::GlApi::kGles;
  for (auto& e : all) {
    if (!wire::gl_extension_blocked(e.c_str(), api)) list.push_back(std::move(e));
  }
  return list;
}

// glGetString(GL_EXTENSIONS) of the extensions the guest offers: the host's
// `host_list` as it is when the guest hides none of them.
const std::string& offered_extension_string(Stream& s, const std::string& host_list) {
  auto& cache = s.gl_state().string_cache();
  const uint64_t key = uint64_t{1} << 62;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const auto& offered = extension_list(s);
  const size_t listed = split_extensions(host_list).size();
  std::string joined = listed == offered.size() ? host_list : std::string();
  if (listed != offered.size()) {
    for (const auto& e : offered) joined += e + " ";
  }
  return cache.emplace(key, std::move(joined)).first->second;
}

template <typename T>
void get_values(wire::GlOp op, GLenum pname, T* out) {
  Stream* s = current_stream();
  if (!s || !out) return;
  if (pname == kNumExtensions && indexed_extensions(*s)) {
    // The extensions the guest offers, which glGetStringi indexes.
    *out = static_cast<T>(extension_list(*s).size());
    return;
  }
  if (GLint v = 0; client_array_query(s->gl_state(), pname, &v)) {
    *out = std::is_same_v<T, GLboolean> ? static_cast<T>(v != 0) : static_cast<T>(v);
    return;
  }
  const uint64_t key = (uint64_t{sizeof(T)} << 32) | pname;
  auto& cache = s->gl_state().get_cache();
  auto it = cache.find(key);
  if (it != cache.end()) {
    std::memcpy(out, it->second.data(), it->second.size());
    return;
  }
  host_values(*s, op, pname, out, true);
}

}  // namespace

const GLubyte* GLAPIENTRY handle_glGetString(GLenum name) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  const std::string* text = context_string(*s, name);
  // Core profiles have none: GL answers with GL_INVALID_ENUM.
  if (text && name == kExtensions) text = &offered_extension_string(*s, *text);
  return text ? reinterpret_cast<const GLubyte*>(text->c_str()) : nullptr;
}

const GLubyte* GLAPIENTRY handle_glGetStringi(GLenum name, GLuint index) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  if (name == kExtensions) {
    const auto& list = extension_list(*s);
    if (index < list.size()) return reinterpret_cast<const GLubyte*>(list[index].c_str());
    s->gl_state().raise_error(kInvalidValue);
    return nullptr;
  }
  const std::string* text = fetch_string(*s, name, index, true);
  return text ? reinterpret_cast<const GLubyte*>(text->c_str()) : nullptr;
}

void GLAPIENTRY handle_glGetIntegerv(GLenum pname, GLint* data) {
  get_values(wire::GlOp::glGetIntegerv, pname, data);
}

void GLAPIENTRY handle_glGetFloatv(GLenum pname, GLfloat* data) {
  get_values(wire::GlOp::glGetFloatv, pname, data);
}

void GLAPIENTRY handle_glGetBooleanv(GLenum pname, GLboolean* data) {
  get_values(wire::GlOp::glGetBooleanv, pname, data);
}

void GLAPIENTRY handle_glGetDoublev(GLenum pname, GLdouble* data) {
  get_values(wire::GlOp::glGetDoublev, pname, data);
}

void GLAPIENTRY handle_glGetInteger64v(GLenum pname, GLint64* data) {
  get_values(wire::GlOp::glGetInteger64v, pname, data);
}

void GLAPIENTRY handle_glFinish() {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glFinish(s->writer());
  if (s->roundtrip()) fetch_mapped_reads(*s);
  deliver_debug_messages(*s);
  s->run_at_flush();
}

namespace {

// A one-value query whose answer a lost context (or a host gone) gives
// without asking.
GLenum lost_or_asked(void (*encode)(wire::Writer&), GLenum when_lost) {
  Stream* s = current_stream();
  if (!s) return 0;
  if (s->lost()) return when_lost;
  encode(s->writer());
  auto reply = s->roundtrip();
  if (!reply) return when_lost;
  wire::Reader r(*reply, 0);
  auto value = r.get<GLenum>();
  return value ? *value : when_lost;
}

}  // namespace

// A lost context generates GL_CONTEXT_LOST for every command (OpenGL 4.6,
// 2.3.1), so glGetError never says "no error" then.
// An error the guest raised itself comes first.
GLenum GLAPIENTRY handle_glGetError() {
  constexpr GLenum kContextLost = 0x0507;
  if (Stream* s = current_stream()) {
    deliver_debug_messages(*s);
    if (!s->lost()) {
      if (const GLenum local = s->gl_state().take_error()) return local;
    }
  }
  return lost_or_asked(wire::encode_glGetError, kContextLost);
}

GLenum GLAPIENTRY handle_glGetGraphicsResetStatus() {
  constexpr GLenum kUnknownContextReset = 0x8255;
  return lost_or_asked(wire::encode_glGetGraphicsResetStatus, kUnknownContextReset);
}

// Sent at once: drawing into a window's front buffer shows at a flush.
void GLAPIENTRY handle_glFlush() {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glFlush(s->writer());
  s->run_at_flush();
  s->flush();
  deliver_debug_messages(*s);
}

void GLAPIENTRY handle_glPixelStorei(GLenum pname, GLint param) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().pixel_store(pname, param);
  wire::encode_glPixelStorei(s->writer(), pname, param);
  s->commit();
}

void GLAPIENTRY handle_glPixelStoref(GLenum pname, GLfloat param) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().pixel_store(pname, wire::size::pixel_store_value(param));
  wire::encode_glPixelStoref(s->writer(), pname, param);
  s->commit();
}

void GLAPIENTRY handle_glPushClientAttrib(GLbitfield mask) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().push_client_attrib(mask);
  wire::encode_glPushClientAttrib(s->writer(), mask);
  s->commit();
}

void GLAPIENTRY handle_glPopClientAttrib() {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().pop_client_attrib();
  wire::encode_glPopClientAttrib(s->writer());
  s->commit();
}

namespace {

using UniformEncoder = void (*)(wire::Writer&, GLuint, GLint);

template <typename T>
void get_uniform(UniformEncoder encode, GLuint program, GLint location, T* params) {
  Stream* s = current_stream();
  if (!s) return;
  encode(s->writer(), program, location);
  auto reply = s->roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  copy_reply(r, params, 16 * sizeof(T));
}

}  // namespace

void GLAPIENTRY handle_glGetUniformfv(GLuint program, GLint location, GLfloat* params) {
  get_uniform(wire::encode_glGetUniformfv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformiv(GLuint program, GLint location, GLint* params) {
  get_uniform(wire::encode_glGetUniformiv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformuiv(GLuint program, GLint location, GLuint* params) {
  get_uniform(wire::encode_glGetUniformuiv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformdv(GLuint program, GLint location, GLdouble* params) {
  get_uniform(wire::encode_glGetUniformdv, program, location, params);
}

void GLAPIENTRY handle_glGetUniformi64vARB(GLuint program, GLint location, GLint64* params) {
  get_uniform(wire::encode_glGetUniformi64vARB, program, location, params);
}

void GLAPIENTRY handle_glGetUniformui64vARB(GLuint program, GLint location, GLuint64* params) {
  get_uniform(wire::encode_glGetUniformui64vARB, program, location, params);
}

void GLAPIENTRY handle_glGetUniformi64vNV(GLuint program, GLint location, GLint64EXT* params) {
  get_uniform(wire::encode_glGetUniformi64vNV, program, location, params);
}

void GLAPIENTRY handle_glGetUniformui64vNV(GLuint program, GLint location, GLuint64EXT* params) {
  get_uniform(wire::encode_glGetUniformui64vNV, program, location, params);
}

// The host knows the program string's length; the program's buffer holds it.
void GLAPIENTRY handle_glGetProgramStringARB(GLenum target, GLenum pname, void* string) {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glGetProgramStringARB(s->writer(), target, pname);
  auto reply = s->roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  copy_reply(r, string, SIZE_MAX);
}

namespace {

using BlockQueryEncoder = void (*)(wire::Writer&, GLuint, GLuint, GLenum);

// A block's or buffer's values: as many as the host found.
void get_block_values(BlockQueryEncoder encode, GLuint program, GLuint index, GLenum pname, GLint* params) {
  Stream* s = current_stream();
  if (!s || !params) return;
  encode(s->writer(), program, index, pname);
  auto reply = s->roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  auto data = r.get_data();
  if (data) std::memcpy(params, data->bytes.data(), data->bytes.size());
}

}  // namespace

void GLAPIENTRY handle_glGetActiveUniformBlockiv(GLuint program, GLuint block, GLenum pname,
                                                 GLint* params) {
  get_block_values(wire::encode_glGetActiveUniformBlockiv, program, block, pname, params);
}

void GLAPIENTRY handle_glGetActiveAtomicCounterBufferiv(GLuint program, GLuint buffer, GLenum pname,
                                                        GLint* params) {
  get_block_values(wire::encode_glGetActiveAtomicCounterBufferiv, program, buffer, pname, params);
}

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
  auto reply = s->roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  auto data = r.get_data();
  if (!data) return;
  if (data->bytes.size() > static_cast<size_t>(std::max(buf_size, 0))) {
    return s->gl_state().raise_error(kInvalidOperation);
  }
  if (values && !data->bytes.empty()) std::memcpy(values, data->bytes.data(), data->bytes.size());
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

namespace {

// The fixed-function array whose pointer `pname` asks for, or kLegacySlots.
size_t pointer_slot(GlState& st, GLenum pname) {
  switch (pname) {
    case 0x808E: return static_cast<size_t>(LegacySlot::kVertex);          // GL_VERTEX_ARRAY_POINTER
    case 0x808F: return static_cast<size_t>(LegacySlot::kNormal);          // GL_NORMAL_ARRAY_POINTER
    case 0x8090: return static_cast<size_t>(LegacySlot::kColor);           // GL_COLOR_ARRAY_POINTER
    case 0x8091: return static_cast<size_t>(LegacySlot::kIndex);           // GL_INDEX_ARRAY_POINTER
    case 0x8093: return static_cast<size_t>(LegacySlot::kEdgeFlag);        // GL_EDGE_FLAG_ARRAY_POINTER
    case 0x8456: return static_cast<size_t>(LegacySlot::kFogCoord);        // GL_FOG_COORD_ARRAY_POINTER
    case 0x845D: return static_cast<size_t>(LegacySlot::kSecondaryColor);  // GL_SECONDARY_COLOR_ARRAY_POINTER
    case 0x898C: return static_cast<size_t>(LegacySlot::kPointSize);       // GL_POINT_SIZE_ARRAY_POINTER_OES
    case 0x8092:  // GL_TEXTURE_COORD_ARRAY_POINTER, of the client active unit
      return static_cast<size_t>(LegacySlot::kTexCoord0) + st.legacy_arrays().client_active_texture;
    default: return kLegacySlots;
  }
}

}  // namespace

// Every pointer glGetPointerv answers is the program's own, which the guest
// keeps: array pointers (buffer offsets when a buffer held the array), the
// selection and feedback buffers, the debug callback.
void GLAPIENTRY handle_glGetPointerv(GLenum pname, void** params) {
  Stream* s = current_stream();
  if (!s || !params || s->gl_state().refused_inside_begin()) return;
  GlState& st = s->gl_state();
  constexpr GLenum kCallbackFunction = 0x8244, kCallbackUserParam = 0x8245;
  constexpr GLenum kFeedbackBufferPointer = 0x0DF0, kSelectionBufferPointer = 0x0DF3;
  if (const size_t slot = pointer_slot(st, pname); slot < kLegacySlots) {
    *params = const_cast<void*>(st.legacy_arrays().slots[slot].pointer);
    return;
  }
  switch (pname) {
    case kCallbackFunction: *params = st.debug_callback; break;
    case kCallbackUserParam: *params = const_cast<void*>(st.debug_user_param); break;
    case kFeedbackBufferPointer: *params = st.feedback_buffer.data; break;
    case kSelectionBufferPointer: *params = st.select_buffer.data; break;
    default: st.raise_error(0x0500);  // GL_INVALID_ENUM
  }
}

void GLAPIENTRY handle_glDebugMessageCallback(GLDEBUGPROC callback, const void* user_param) {
  Stream* s = current_stream();
  if (s) set_debug_callback(*s, callback, user_param);
}

}  // namespace icd
