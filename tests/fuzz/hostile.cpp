#include "hostile.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "wire/control.h"

namespace fuzz {
namespace {

template <typename T, size_t N>
T pick(const T (&values)[N], Rng& rng) {
  return values[rng.below(N)];
}

constexpr uint64_t kInts32[] = {0, 1, 2, 3, 4, 8, 16, 255, 256, 1024, 4096, 0xffff, 0x10000,
                                0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x40000000};
constexpr uint64_t kInts64[] = {0, 1, 4, 16, 256, 4096, 0x10000, 0x7fffffff, 0x80000000, 0x100000000,
                                ~uint64_t{0}, 0x7fffffffffffffff, 0x8000000000000000, 0xfffffffffffffff0};
constexpr uint64_t kCounts[] = {0, 1, 2, 3, 4, 6, 16, 64, 256, 1024, 65536, 1u << 28,
                                0x7fffffff, 0x80000000, 0xffffffff};
constexpr float kFloats[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 100.0f, 65536.0f, 1e38f, -1e38f, 1e-40f,
                             std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity()};
constexpr uint64_t kOffsets[] = {0, 1, 4, 16, 1024, 0x7fffffff, 0x80000000, 0x100000000,
                                 0x4000000000000000, ~uint64_t{0}, ~uint64_t{0} - 3};
constexpr uint32_t kElementCounts[] = {0, 1, 2, 3, 4, 6, 9, 16, 64, 256, 1024, 4096};
constexpr std::string_view kIdentifiers[] = {
    "a_position", "u_mvp", "color", "gl_Position", "main", "", "tex[0]", "s.f[2].x",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};

uint64_t float_bits(const ArgSpec& spec, Rng& rng) {
  float f = pick(kFloats, rng);
  if (spec.bytes == 8) return std::bit_cast<uint64_t>(static_cast<double>(f));
  return std::bit_cast<uint32_t>(f);
}

uint64_t integer(const ArgSpec& spec, Rng& rng) {
  if (rng.percent(10)) return rng.next() | (spec.bytes == 8 ? uint64_t{rng.next()} << 32 : 0);
  return spec.bytes == 8 ? pick(kInts64, rng) : pick(kInts32, rng);
}

// Elements of small values (names, indices, colours) or random bytes.
std::vector<std::byte> array_bytes(const ArgSpec& spec, Rng& rng) {
  size_t elem = spec.bytes ? spec.bytes : 1;
  size_t n = pick(kElementCounts, rng) * elem;
  if (rng.percent(20)) n = n + rng.below(3) - (n > 0 ? 1 : 0);  // a byte short or over
  std::vector<std::byte> out(n);
  bool small = rng.percent(60);
  for (size_t i = 0; i < n; ++i) {
    bool low = i % elem == 0;  // little-endian: the element's first byte
    out[i] = static_cast<std::byte>(small ? (low ? rng.below(6) : 0) : rng.next());
  }
  return out;
}

std::vector<std::byte> string_bytes(Rng& rng) {
  std::string_view s = pick(kIdentifiers, rng);
  std::vector<std::byte> out(s.size() + 1);
  std::memcpy(out.data(), s.data(), s.size());
  if (rng.percent(20)) out.pop_back();  // no terminating NUL
  return out;
}

}  // namespace

uint64_t hostile_scalar(const ArgSpec& spec, Rng& rng) {
  switch (spec.kind) {
    case ArgKind::kFloat:
      return float_bits(spec, rng);
    case ArgKind::kEnum: {
      auto values = enum_values(spec);
      if (!values.empty() && rng.percent(85)) return values[rng.below(static_cast<uint32_t>(values.size()))];
      return integer(spec, rng);
    }
    case ArgKind::kName:
      return rng.percent(80) ? rng.below(9) : integer(spec, rng);
    case ArgKind::kCount:
      return pick(kCounts, rng) | (spec.bytes == 8 && rng.percent(20) ? ~uint64_t{0} << 32 : 0);
    default:
      return integer(spec, rng);
  }
}

Arg hostile_arg(const ArgSpec& spec, Rng& rng) {
  Arg a;
  if (!is_data(spec.kind)) {
    a.scalar = hostile_scalar(spec, rng);
    return a;
  }
  uint32_t roll = rng.below(100);
  if (roll < 8) return a;  // null
  if (roll < 11) {
    a.kind = wire::DataKind::kHeap;
    a.offset = pick(kOffsets, rng);
    a.heap_length = static_cast<uint32_t>(pick(kCounts, rng));
    return a;
  }
  if (roll < (spec.kind == ArgKind::kPixels ? 35u : 14u)) {
    a.kind = wire::DataKind::kBufferOffset;
    a.offset = pick(kOffsets, rng);
    return a;
  }
  a.kind = wire::DataKind::kInline;
  a.bytes = spec.kind == ArgKind::kString ? string_bytes(rng) : array_bytes(spec, rng);
  return a;
}

Command hostile_gl_command(Rng& rng) {
  auto commands = gl_commands();
  const CommandSpec& spec = commands[rng.below(static_cast<uint32_t>(commands.size()))];
  std::vector<Arg> args;
  for (const ArgSpec& s : args_of(spec)) args.push_back(hostile_arg(s, rng));
  return encode_command(spec, args);
}

Command hostile_control_command(Rng& rng) {
  using wire::ControlOp;
  struct Shape {
    ControlOp op;
    uint32_t fields;  // u32 fields of the payload struct
  };
  static constexpr Shape kShapes[] = {
      {ControlOp::kMakeCurrent, 3},   {ControlOp::kMakeCurrent, 3},    {ControlOp::kCreateContext, 7},
      {ControlOp::kDestroyContext, 1}, {ControlOp::kCreateSurface, sizeof(wire::CreateSurface) / 4}, {ControlOp::kDestroySurface, 1},
      {ControlOp::kResizeSurface, 3},  {ControlOp::kSwapBuffers, 2},    {ControlOp::kSync, 0},
      {ControlOp::kFrameDone, 2},      {ControlOp::kGetStats, 0}};
  const Shape& shape = pick(kShapes, rng);
  Command c{static_cast<uint32_t>(shape.op), {}};
  for (uint32_t i = 0; i < shape.fields; ++i) {
    uint32_t v = rng.percent(85) ? rng.below(4) : static_cast<uint32_t>(pick(kInts32, rng));
    auto* p = reinterpret_cast<const std::byte*>(&v);
    c.payload.insert(c.payload.end(), p, p + sizeof v);
  }
  return c;
}

}  // namespace fuzz
