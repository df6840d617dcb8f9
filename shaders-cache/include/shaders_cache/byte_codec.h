// Little-endian fields for cache entries. The reader is bounded: reading
// past the end, or a length longer than what is left, fails it for good.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace shaders_cache {

class ByteWriter {
 public:
  void u32(uint32_t v);
  void bytes(std::span<const std::byte> b);  // length first
  void text(const std::string& s);           // length first
  std::vector<std::byte>& out() { return out_; }

 private:
  std::vector<std::byte> out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> in) : in_(in) {}
  uint32_t u32();
  std::vector<std::byte> bytes();
  std::string text();
  // A count of items each at least `min_item_bytes` long: more than could
  // fit in what is left fails the reader.
  uint32_t count(size_t min_item_bytes);
  bool ok() const { return ok_; }
  bool at_end() const { return ok_ && at_ == in_.size(); }

 private:
  bool take(size_t n);
  std::span<const std::byte> in_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace shaders_cache
