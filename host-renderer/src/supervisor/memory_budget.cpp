#include "host/memory_budget.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace host {

namespace {

// The leading decimal digits of `text`, and what follows them.
std::optional<uint64_t> leading_number(std::string_view& text) {
  uint64_t v = 0;
  size_t used = 0;
  for (; used < text.size() && text[used] >= '0' && text[used] <= '9'; ++used) {
    const uint64_t digit = static_cast<uint64_t>(text[used] - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  if (used == 0) return std::nullopt;
  text.remove_prefix(used);
  return v;
}

int suffix_shift(std::string_view suffix) {
  if (suffix.empty()) return 0;
  if (suffix.size() != 1) return -1;
  switch (suffix[0]) {
    case 'K': case 'k': return 10;
    case 'M': case 'm': return 20;
    case 'G': case 'g': return 30;
    default: return -1;
  }
}

}  // namespace

std::optional<uint64_t> parse_size(std::string_view text) {
  auto v = leading_number(text);
  const int shift = suffix_shift(text);
  if (!v || shift < 0 || *v > (UINT64_MAX >> shift)) return std::nullopt;
  return *v << shift;
}

std::optional<uint64_t> parse_memory_share(std::string_view text, uint64_t physical) {
  if (!text.ends_with('%')) return parse_size(text);
  text.remove_suffix(1);
  auto percent = leading_number(text);
  if (!percent || !text.empty() || *percent < 1 || *percent > 100) return std::nullopt;
  return physical / 100 * *percent + physical % 100 * *percent / 100;
}

uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

uint64_t process_memory_bytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  uint64_t kib = 0;
  std::string line;
  while (std::getline(status, line)) {
    unsigned long long v = 0;
    if (std::sscanf(line.c_str(), "RssAnon: %llu kB", &v) == 1 ||
        std::sscanf(line.c_str(), "RssShmem: %llu kB", &v) == 1) {
      kib += v;
    }
  }
  return kib * 1024;
}

}  // namespace host
