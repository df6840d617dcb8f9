// Errors as values for everything that touches bytes from the other side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace wire {

enum class Errc : uint8_t {
  kTruncated,       // fewer bytes present than a length says
  kBadLength,       // a length field that cannot be right
  kOverflow,        // checked arithmetic overflowed
  kBadMagic,        // not a Conduit batch
  kBadVersion,      // protocol version not understood
  kUnknownOpcode,   // opcode outside the table or not supported
  kBadValue,        // a value outside what the command allows
  kBadName,         // object name unknown or of the wrong type
  kLimit,           // a per-guest limit was exceeded
  kCompression,     // zstd failed
  kIo,              // transport failure
  kClosed,          // the peer went away
  kTimeout,         // the peer did not answer in time
};

const char* errc_name(Errc code);

struct Error {
  Errc code;
  std::string detail;
  size_t offset = 0;  // byte offset in the batch where it happened

  std::string describe() const;
};

// Minimal expected<T, Error>; std::expected needs C++23 library support
// that the supported compilers do not all have.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// A success is one null pointer: the error lives out of line, so the
// per-command paths that return a Status at every step build and destroy
// no string for the error they do not have.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::make_unique<Error>(std::move(error))) {}
  Result(const Result& other) : error_(other.error_ ? std::make_unique<Error>(*other.error_) : nullptr) {}
  Result& operator=(const Result& other) {
    if (this != &other) error_ = other.error_ ? std::make_unique<Error>(*other.error_) : nullptr;
    return *this;
  }
  Result(Result&&) noexcept = default;
  Result& operator=(Result&&) noexcept = default;

  bool ok() const { return !error_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_ ? *error_ : no_error(); }

 private:
  static const Error& no_error() {
    static const Error none{Errc::kIo, {}, 0};
    return none;
  }
  std::unique_ptr<Error> error_;
};

using Status = Result<void>;

inline Error make_error(Errc code, std::string detail, size_t offset = 0) {
  return Error{code, std::move(detail), offset};
}

// Checked arithmetic that names the operands when it overflows.
Result<size_t> checked_mul(size_t a, size_t b, const char* what_a, const char* what_b);
Result<size_t> checked_add(size_t a, size_t b, const char* what_a, const char* what_b);

}  // namespace wire

#define WIRE_TRY(expr)                          \
  do {                                          \
    auto wire_try_status_ = (expr);             \
    if (!wire_try_status_) return wire_try_status_.error(); \
  } while (0)

// `name` is the value of a Result, or the enclosing function returns its error.
#define WIRE_TRY_ASSIGN(name, expr)               \
  auto name##_result_ = (expr);                   \
  if (!name##_result_) return name##_result_.error(); \
  auto name = *name##_result_
