// Support for the generated per-command round-trip tests.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "wire/reader.h"
#include "wire/writer.h"

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  template <typename T>
  T scalar() {
    T value;
    unsigned char raw[sizeof(T)];
    for (auto& b : raw) b = static_cast<unsigned char>(engine_());
    std::memcpy(&value, raw, sizeof value);
    return value;
  }

  // 0 to 300 random bytes; sometimes none at all.
  std::vector<std::byte> bytes() {
    std::vector<std::byte> out(engine_() % 301);
    for (auto& b : out) b = static_cast<std::byte>(engine_());
    return out;
  }

  std::string text() {
    std::string out(engine_() % 80, 'a');
    for (auto& ch : out) ch = static_cast<char>('!' + engine_() % 90);
    return out;
  }

 private:
  std::mt19937_64 engine_;
};

template <typename T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

inline std::vector<std::byte> as_bytes(const wire::Data& d) {
  return {d.bytes.begin(), d.bytes.end()};
}

inline std::string as_string(const wire::Data& d) {
  return {reinterpret_cast<const char*>(d.bytes.data()), d.bytes.size()};
}

// The payload of the only command in `w`, checking its header.
std::vector<std::byte> single_command(const wire::Writer& w, uint32_t opcode);

// Decoding any prefix that ends before the encoded arguments do must fail
// cleanly (the ASan build proves no byte outside the prefix is read).
void expect_truncation_fails(const std::vector<std::byte>& payload,
                             const std::function<wire::Status(wire::Reader&)>& decode);

struct RoundTrip {
  const char* name;
  void (*run)(Rng&);
};

const std::vector<RoundTrip>& all_roundtrips();
