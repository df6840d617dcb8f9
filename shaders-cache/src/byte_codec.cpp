#include "shaders_cache/byte_codec.h"

#include <cstring>

namespace shaders_cache {

void ByteWriter::u32(uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::byte>(v >> (8 * i)));
}

void ByteWriter::bytes(std::span<const std::byte> b) {
  u32(static_cast<uint32_t>(b.size()));
  out_.insert(out_.end(), b.begin(), b.end());
}

void ByteWriter::text(const std::string& s) { bytes(std::as_bytes(std::span(s.data(), s.size()))); }

bool ByteReader::take(size_t n) {
  if (!ok_ || in_.size() - at_ < n) ok_ = false;
  return ok_;
}

uint32_t ByteReader::u32() {
  if (!take(4)) return 0;
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(in_[at_ + i]) << (8 * i);
  at_ += 4;
  return v;
}

std::vector<std::byte> ByteReader::bytes() {
  const uint32_t n = u32();
  if (!take(n)) return {};
  std::vector<std::byte> out(in_.begin() + at_, in_.begin() + at_ + n);
  at_ += n;
  return out;
}

std::string ByteReader::text() {
  auto b = bytes();
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

uint32_t ByteReader::count(size_t min_item_bytes) {
  const uint32_t n = u32();
  if (ok_ && min_item_bytes > 0 && n > (in_.size() - at_) / min_item_bytes) ok_ = false;
  return ok_ ? n : 0;
}

}  // namespace shaders_cache
