#include "program_cache_channel.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "control_socket.h"
#include "shaders_cache/content_hash.h"
#include "shaders_cache/entry_store.h"

namespace host {
namespace {

using shaders_cache::EntryStore;

// Longer than any store's disk read; a supervisor slower than this is
// treated as a miss.
constexpr auto kAnswerWait = std::chrono::milliseconds(5000);

// A memfd holding `payload`, or -1.
int payload_fd(std::span<const std::byte> payload) {
  const int fd = ::memfd_create("conduit-cache-entry", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < payload.size()) {
    const ssize_t n = ::write(fd, payload.data() + done, payload.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return -1;
    }
    done += static_cast<size_t>(n);
  }
  return fd;
}

// What a received memfd holds, at most EntryStore::kMaxPayload bytes; none
// when it is larger or cannot be read.
std::optional<std::vector<std::byte>> read_payload(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      static_cast<uint64_t>(st.st_size) > EntryStore::kMaxPayload)
    return std::nullopt;
  std::vector<std::byte> out(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    done += static_cast<size_t>(n);
  }
  return out;
}

void close_all(const std::vector<int>& fds) {
  for (int fd : fds) ::close(fd);
}

std::string key_of(const nlohmann::json& body) {
  const auto it = body.find("key");
  return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void answer(int fd, EntryStore& store, const std::string& key) {
  auto entry = shaders_cache::is_content_key(key) ? store.get(key) : std::nullopt;
  const int payload = entry ? payload_fd(*entry) : -1;
  std::vector<int> fds;
  if (payload >= 0) fds.push_back(payload);
  (void)send_control(fd, ControlMsg::kCacheEntry, {{"key", key}, {"found", payload >= 0}}, fds);
  if (payload >= 0) ::close(payload);
}

}  // namespace

ProgramCacheClient::~ProgramCacheClient() { ::close(fd_); }

std::optional<std::vector<std::byte>> ProgramCacheClient::get(const std::string& key) {
  std::lock_guard lock(mutex_);
  if (!send_control(fd_, ControlMsg::kCacheGet, {{"key", key}})) return std::nullopt;
  for (;;) {
    auto msg = receive_control(fd_, kAnswerWait);
    if (!msg) return std::nullopt;
    std::optional<std::vector<std::byte>> out;
    // An answer to an earlier request that timed out is skipped.
    const bool ours = msg->type == ControlMsg::kCacheEntry && key_of(msg->body) == key;
    if (ours && msg->fds.size() == 1) out = read_payload(msg->fds[0]);
    close_all(msg->fds);
    if (ours) return out;
  }
}

void ProgramCacheClient::put(const std::string& key, std::span<const std::byte> payload) {
  std::lock_guard lock(mutex_);
  const int fd = payload_fd(payload);
  if (fd < 0) return;
  (void)send_control(fd_, ControlMsg::kCachePut, {{"key", key}}, {fd}, false);
  ::close(fd);
}

void serve_program_cache(int fd, EntryStore& store) {
  for (;;) {
    auto msg = receive_control(fd, std::nullopt);
    if (!msg) {
      if (msg.error().code == wire::Errc::kBadLength || msg.error().code == wire::Errc::kBadValue) continue;
      break;  // the renderer's end closed
    }
    const std::string key = key_of(msg->body);
    if (msg->type == ControlMsg::kCacheGet) answer(fd, store, key);
    if (msg->type == ControlMsg::kCachePut && msg->fds.size() == 1 && shaders_cache::is_content_key(key)) {
      if (auto payload = read_payload(msg->fds[0])) store.put(key, *payload);
    }
    close_all(msg->fds);
  }
  ::close(fd);
}

}  // namespace host
