#include "gl/pointer_errors.h"

namespace icd {
namespace {

constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;
constexpr GLenum kBgra = 0x80E1, kUnsignedByte = 0x1401;
constexpr GLenum kInt2101010 = 0x8D9F, kUint2101010 = 0x8368, kUint10f11f11f = 0x8C3B;
constexpr GLenum kFixed = 0x140C;

bool integer_type(GLenum type) { return type >= 0x1400 && type <= 0x1405; }  // BYTE..UNSIGNED_INT

// The types each function takes, in any API that has it.
bool takes_type(AttribFormat format, GLenum type) {
  switch (format) {
    case AttribFormat::kInteger: return integer_type(type);
    case AttribFormat::kLong: return type == 0x140A;  // GL_DOUBLE
    case AttribFormat::kFloat:
      return integer_type(type) || type == 0x1406 || type == 0x140A || type == 0x140B ||
             type == kFixed || type == 0x8D61 || type == kInt2101010 || type == kUint2101010 ||
             type == kUint10f11f11f;  // FLOAT, DOUBLE, HALF_FLOAT, FIXED, HALF_FLOAT_OES, packed
  }
  return false;
}

// Sizes a type allows (GL_INVALID_OPERATION otherwise); GL_BGRA is a size
// of desktop GL's float function only, normalized.
GLenum size_error(const AttribPointer& p, bool desktop) {
  const bool bgra = p.size == static_cast<GLint>(kBgra) && p.format == AttribFormat::kFloat && desktop;
  if (!bgra && (p.size < 1 || p.size > 4)) return kInvalidValue;
  if (bgra && !p.normalized) return kInvalidOperation;
  if (p.type == kInt2101010 || p.type == kUint2101010) return p.size == 4 || bgra ? 0 : kInvalidOperation;
  if (p.type == kUint10f11f11f) return p.size == 3 ? 0 : kInvalidOperation;
  return bgra && p.type != kUnsignedByte ? kInvalidOperation : 0;
}

}  // namespace

GLenum attrib_pointer_error(const AttribPointer& p, GLint max_attribs, bool desktop) {
  if (max_attribs > 0 && p.index >= static_cast<GLuint>(max_attribs)) return kInvalidValue;
  if (p.stride < 0) return kInvalidValue;
  if (!takes_type(p.format, p.type)) return kInvalidEnum;
  return size_error(p, desktop);
}

GLenum fixed_function_pointer_error(bool colour_array, GLint size, GLenum type, GLsizei stride) {
  if (type == kFixed) return kInvalidEnum;  // OpenGL ES's alone (ARB_ES2_compatibility: generic arrays only)
  if (stride < 0) return kInvalidValue;
  if (size != static_cast<GLint>(kBgra)) return 0;
  if (!colour_array) return kInvalidValue;
  const bool takes_bgra = type == kUnsignedByte || type == kInt2101010 || type == kUint2101010;
  return takes_bgra ? 0 : kInvalidOperation;
}

}  // namespace icd
