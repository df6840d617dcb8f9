#include "wire/result.h"

#include <limits>

namespace wire {

const char* errc_name(Errc code) {
  switch (code) {
    case Errc::kTruncated: return "truncated";
    case Errc::kBadLength: return "bad length";
    case Errc::kOverflow: return "overflow";
    case Errc::kBadMagic: return "bad magic";
    case Errc::kBadVersion: return "bad version";
    case Errc::kUnknownOpcode: return "unknown opcode";
    case Errc::kBadValue: return "bad value";
    case Errc::kBadName: return "bad name";
    case Errc::kLimit: return "limit exceeded";
    case Errc::kCompression: return "compression";
    case Errc::kIo: return "i/o";
    case Errc::kClosed: return "closed";
    case Errc::kTimeout: return "timeout";
  }
  return "unknown";
}

std::string Error::describe() const {
  std::string text = errc_name(code);
  if (!detail.empty()) text += ": " + detail;
  text += " (off=" + std::to_string(offset) + ")";
  return text;
}

namespace {

// a OP b, or an overflow error that shows both operands.
template <typename Op>
Result<size_t> checked(Op overflows, const char* op, size_t a, size_t b, const char* what_a, const char* what_b) {
  size_t out = 0;
  if (overflows(a, b, &out)) {
    return make_error(Errc::kOverflow, std::string(what_a) + op + what_b + " = " + std::to_string(a) + op +
                                           std::to_string(b));
  }
  return out;
}

}  // namespace

Result<size_t> checked_mul(size_t a, size_t b, const char* what_a, const char* what_b) {
  return checked([](size_t x, size_t y, size_t* out) { return __builtin_mul_overflow(x, y, out); }, " * ", a, b,
                 what_a, what_b);
}

Result<size_t> checked_add(size_t a, size_t b, const char* what_a, const char* what_b) {
  return checked([](size_t x, size_t y, size_t* out) { return __builtin_add_overflow(x, y, out); }, " + ", a, b,
                 what_a, what_b);
}

}  // namespace wire
