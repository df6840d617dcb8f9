#include "gl/debug_output.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gl/gl_state.h"
#include "wire/gl_encode.h"
#include "wire/reader.h"

namespace icd {
namespace {

constexpr GLuint kMessagesPerAsk = 16;
constexpr GLsizei kLogBytes = 16 * 1024;
constexpr int kMostAsks = 64;  // a log never holds more than a few hundred

struct Message {
  GLenum source = 0, type = 0, severity = 0;
  GLuint id = 0;
  std::string text;
};

template <typename T>
std::vector<T> values(wire::Reader& r, size_t count) {
  std::vector<T> out(count);
  auto data = r.get_data();
  const size_t bytes = data ? std::min(data->bytes.size(), count * sizeof(T)) : 0;
  if (bytes > 0) std::memcpy(out.data(), data->bytes.data(), bytes);
  return out;
}

// Up to kMessagesPerAsk messages taken from the host's log (a round trip).
std::vector<Message> take_logged(Stream& s) {
  wire::encode_glGetDebugMessageLog(s.writer(), kMessagesPerAsk, kLogBytes);
  auto reply = s.roundtrip();
  if (!reply) return {};
  wire::Reader r(*reply, 0);
  auto count = r.get<GLuint>();
  if (!count || *count > kMessagesPerAsk) return {};
  auto sources = values<GLenum>(r, *count), types = values<GLenum>(r, *count);
  auto ids = values<GLuint>(r, *count), severities = values<GLenum>(r, *count);
  auto lengths = values<GLsizei>(r, *count);
  auto log = r.get_data();
  std::vector<Message> out;
  size_t at = 0;
  for (GLuint i = 0; i < *count && log; ++i) {
    const size_t length = static_cast<size_t>(std::max(lengths[i], 1));  // with its NUL
    if (at + length > log->bytes.size()) break;
    const char* text = reinterpret_cast<const char*>(log->bytes.data()) + at;
    out.push_back({sources[i], types[i], severities[i], ids[i], std::string(text, length - 1)});
    at += length;
  }
  return out;
}

void update_hook(Stream& s) {
  const GlState& st = s.gl_state();
  s.set_after_command(st.debug_callback && st.debug_synchronous ? deliver_debug_messages : nullptr);
}

}  // namespace

void deliver_debug_messages(Stream& s) {
  GlState& st = s.gl_state();
  if (!st.debug_callback || st.delivering_debug || s.lost()) return;
  st.delivering_debug = true;  // the callback may call GL itself
  auto callback = reinterpret_cast<GLDEBUGPROC>(st.debug_callback);
  for (int ask = 0; ask < kMostAsks; ++ask) {
    std::vector<Message> messages = take_logged(s);
    for (const Message& m : messages) {
      callback(m.source, m.type, m.id, m.severity, static_cast<GLsizei>(m.text.size()), m.text.c_str(),
               st.debug_user_param);
    }
    if (messages.size() < kMessagesPerAsk) break;
  }
  st.delivering_debug = false;
}

void set_debug_callback(Stream& s, GLDEBUGPROC callback, const void* user_param) {
  s.gl_state().debug_callback = reinterpret_cast<void*>(callback);
  s.gl_state().debug_user_param = user_param;
  update_hook(s);
}

void set_debug_synchronous(Stream& s, bool on) {
  s.gl_state().debug_synchronous = on;
  update_hook(s);
}

}  // namespace icd
