// A SHA-256 of everything fed to it, each piece framed by its length so that
// no two different sequences of pieces hash alike.
#pragma once

#include <nettle/sha2.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace shaders_cache {

class ContentHash {
 public:
  ContentHash();
  ContentHash& add(std::string_view text);
  ContentHash& add(std::span<const std::byte> bytes);
  ContentHash& add(uint64_t value);
  // 64 lowercase hex digits; the hash then starts over.
  std::string hex();

 private:
  void raw(const void* data, size_t size);
  sha256_ctx ctx_;
};

// The SHA-256 of `bytes` alone, raw.
void sha256_of(std::span<const std::byte> bytes, uint8_t out[32]);

// Whether `key` is what ContentHash::hex() gives: the only names the store takes.
bool is_content_key(std::string_view key);

}  // namespace shaders_cache
