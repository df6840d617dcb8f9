#include "shaders_cache/content_hash.h"

#include <algorithm>

namespace shaders_cache {

ContentHash::ContentHash() { sha256_init(&ctx_); }

void ContentHash::raw(const void* data, size_t size) {
  sha256_update(&ctx_, size, static_cast<const uint8_t*>(data));
}

ContentHash& ContentHash::add(uint64_t value) {
  uint8_t le[8];
  for (int i = 0; i < 8; ++i) le[i] = static_cast<uint8_t>(value >> (8 * i));
  raw(le, sizeof le);
  return *this;
}

ContentHash& ContentHash::add(std::string_view text) {
  add(uint64_t{text.size()});
  raw(text.data(), text.size());
  return *this;
}

ContentHash& ContentHash::add(std::span<const std::byte> bytes) {
  add(uint64_t{bytes.size()});
  raw(bytes.data(), bytes.size());
  return *this;
}

std::string ContentHash::hex() {
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx_, sizeof digest, digest);  // also starts over
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : digest) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

void sha256_of(std::span<const std::byte> bytes, uint8_t out[32]) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()));
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
}

bool is_content_key(std::string_view key) {
  return key.size() == 2 * SHA256_DIGEST_SIZE &&
         std::all_of(key.begin(), key.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace shaders_cache
