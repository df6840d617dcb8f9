// Queries the guest answers from its own state or from answers it fetched
// once per context; the rest ask the host (a round trip).
// Wire layouts and replies: wire-protocol/annotations.toml [layouts] and
// [replies].
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
#include "wire/gl_replies.h"

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
  wire::Reply_glGetString out;
  if (!await_reply(s, out, wire::decode_reply_glGetString) || out.string.bytes.empty()) return nullptr;
  std::string text(reinterpret_cast<const char*>(out.string.bytes.data()), out.string.bytes.size() - 1);
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
  s.writer().end(cmd);
  wire::Reply_glGetIntegerv got;  // the reply of every glGet*v
  if (!await_reply(s, got, wire::decode_reply_glGetIntegerv)) return false;
  // The host sends exactly the values this pname has.
  const auto& bytes = got.values.bytes;
  std::memcpy(out, bytes.data(), bytes.size());
  if (cache && immutable_pname(pname) && !cache_disabled()) {
    const uint64_t key = (uint64_t{sizeof(T)} << 32) | pname;
    s.gl_state().get_cache()[key].assign(bytes.begin(), bytes.end());
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

bool offers_extension(Stream& s, const char* name) {
  const auto& list = extension_list(s);
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace icd
