#include "shaders_cache/entry_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "shaders_cache/content_hash.h"

namespace shaders_cache {
namespace {

constexpr char kMagic[8] = {'C', 'N', 'D', 'T', 'C', 'A', 'C', 'H'};
constexpr uint32_t kFormat = 1;
constexpr const char* kTempPrefix = ".tmp-";

struct Header {
  char magic[8];
  uint32_t format;
  uint32_t reserved;
  uint64_t payload_bytes;
  uint8_t checksum[32];  // SHA-256 of the key and the payload
};
static_assert(sizeof(Header) == 56);

void checksum(std::string_view key, std::span<const std::byte> payload, uint8_t out[32]) {
  std::vector<std::byte> all(key.size() + payload.size());
  std::memcpy(all.data(), key.data(), key.size());
  if (!payload.empty()) std::memcpy(all.data() + key.size(), payload.data(), payload.size());
  sha256_of(all, out);
}

bool write_all(int fd, const void* data, size_t size) {
  auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, size_t size) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

struct FileInfo {
  std::string name;
  uint64_t bytes;
  timespec used;
};

bool older(const FileInfo& a, const FileInfo& b) {
  return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec : a.used.tv_nsec < b.used.tv_nsec;
}

// The folder's entries (and, with `temporaries`, its leftover temporary files).
std::vector<FileInfo> list(const std::string& folder, bool temporaries) {
  std::vector<FileInfo> out;
  DIR* d = ::opendir(folder.c_str());
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (!is_content_key(name) && !(temporaries && name.starts_with(kTempPrefix))) continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    out.push_back({std::string(name), static_cast<uint64_t>(st.st_size), st.st_mtim});
  }
  ::closedir(d);
  return out;
}

bool make_folders(const std::string& path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/') continue;
    const std::string part = path.substr(0, at);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
  }
  return true;
}

}  // namespace

EntryStore::EntryStore(std::string folder, uint64_t max_bytes)
    : folder_(std::move(folder)), max_bytes_(max_bytes) {}

bool EntryStore::ensure_folder() const { return make_folders(folder_); }

std::optional<std::vector<std::byte>> EntryStore::get(std::string_view key) {
  if (!is_content_key(key)) return std::nullopt;
  const std::string path = folder_ + "/" + std::string(key);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  Header h{};
  struct stat st {};
  std::optional<std::vector<std::byte>> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read_all(fd, &h, sizeof h) &&
      std::memcmp(h.magic, kMagic, sizeof kMagic) == 0 && h.format == kFormat && h.payload_bytes <= kMaxPayload &&
      static_cast<uint64_t>(st.st_size) == sizeof h + h.payload_bytes) {
    std::vector<std::byte> payload(h.payload_bytes);
    uint8_t sum[32];
    if (read_all(fd, payload.data(), payload.size())) {
      checksum(key, payload, sum);
      if (std::memcmp(sum, h.checksum, sizeof sum) == 0) out = std::move(payload);
    }
  }
  ::close(fd);
  if (!out) {
    ::unlink(path.c_str());  // damaged or foreign: it would never be a hit
    return std::nullopt;
  }
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // used now: last to be evicted
  return out;
}

bool EntryStore::put(std::string_view key, std::span<const std::byte> payload) {
  if (!is_content_key(key) || payload.size() > kMaxPayload || sizeof(Header) + payload.size() > max_bytes_) return false;
  if (!ensure_folder()) return false;
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format = kFormat;
  h.payload_bytes = payload.size();
  checksum(key, payload, h.checksum);
  std::string temp = folder_ + "/" + kTempPrefix + "XXXXXX";
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return false;
  const bool wrote = write_all(fd, &h, sizeof h) && write_all(fd, payload.data(), payload.size());
  ::close(fd);
  if (!wrote || ::rename(temp.c_str(), (folder_ + "/" + std::string(key)).c_str()) != 0) {
    ::unlink(temp.c_str());
    return false;
  }
  evict();
  return true;
}

void EntryStore::evict() {
  std::lock_guard lock(mutex_);
  auto files = list(folder_, false);
  uint64_t total = 0;
  for (const auto& f : files) total += f.bytes;
  if (total <= max_bytes_) return;
  std::sort(files.begin(), files.end(), older);
  for (const auto& f : files) {
    if (total <= max_bytes_) break;
    if (::unlink((folder_ + "/" + f.name).c_str()) == 0) total -= f.bytes;
  }
}

StoreStats EntryStore::stats() const {
  StoreStats s;
  for (const auto& f : list(folder_, false)) {
    ++s.entries;
    s.bytes += f.bytes;
  }
  return s;
}

uint64_t EntryStore::clear() {
  std::lock_guard lock(mutex_);
  uint64_t removed = 0;
  for (const auto& f : list(folder_, true)) removed += ::unlink((folder_ + "/" + f.name).c_str()) == 0;
  return removed;
}

std::vector<std::string> scope_folders(const std::string& root) {
  std::vector<std::string> out;
  DIR* d = ::opendir(root.c_str());
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
      out.push_back(root + "/" + std::string(name));
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace shaders_cache
