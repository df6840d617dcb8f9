// Where a connecting program's token comes from: the environment or a file
// that only its owner may read. Its other transport switches come from the
// environment too.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "fd.h"
#include "wire/transport.h"

namespace wire {
namespace {

constexpr size_t kMaxTokenFile = 4096;

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

// "10", "2.5": a positive number of seconds, at most a day.
std::optional<std::chrono::milliseconds> parse_seconds(const char* text) {
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(seconds >= 0.001 && seconds <= 86400)) return std::nullopt;
  return std::chrono::milliseconds(std::llround(seconds * 1000));
}

}  // namespace

Result<std::string> read_token_file(const std::string& path) {
  transport::Fd fd(::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) return transport::errno_error(("token file " + path).c_str());
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return transport::errno_error(("token file " + path).c_str());
  if (!S_ISREG(st.st_mode)) {
    return make_error(Errc::kBadValue, "token file " + path + " is not a regular file");
  }
  // Like ssh with private keys: a secret others can read is no secret.
  if (st.st_mode & (S_IRWXG | S_IRWXO)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return make_error(Errc::kBadValue, "token file " + path + " (mode " + mode +
                                           ") is accessible by other users; refusing it "
                                           "(chmod 600 " + path + ")");
  }
  std::string text(kMaxTokenFile, '\0');
  ssize_t n = ::read(fd.get(), text.data(), text.size());
  if (n < 0) return transport::errno_error(("token file " + path).c_str());
  text.resize(static_cast<size_t>(n));
  text = text.substr(0, text.find('\n'));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (text.empty()) return make_error(Errc::kBadValue, "token file " + path + " is empty");
  return text;
}

Result<TransportOptions> options_from_environment() {
  TransportOptions opts;
  const char* token = std::getenv("CONDUIT_TOKEN");
  const char* file = std::getenv("CONDUIT_TOKEN_FILE");
  if (file && *file) {
    auto t = read_token_file(file);
    if (!t) return t.error();
    opts.token = std::move(*t);
  } else if (token) {
    opts.token = token;
  }
  opts.insecure = env_flag("CONDUIT_INSECURE");
  if (const char* heaps = std::getenv("CONDUIT_SOCKET_HEAPS")) opts.socket_heaps = std::string(heaps) != "0";
  if (const char* silence = std::getenv("CONDUIT_RING_SILENCE"); silence && *silence) {
    auto ms = parse_seconds(silence);
    if (!ms) {
      return make_error(Errc::kBadValue, std::string("CONDUIT_RING_SILENCE=") + silence +
                                             ": expected seconds, such as 10 or 2.5");
    }
    opts.ring_silence = *ms;
  }
  return opts;
}

}  // namespace wire
