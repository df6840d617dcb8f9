#include "gl/map_errors.h"

namespace icd {
namespace {

constexpr GLenum kInvalidValue = 0x0501, kInvalidOperation = 0x0502;
constexpr GLbitfield kRead = 0x0001, kWrite = 0x0002;
constexpr GLbitfield kInvalidateRange = 0x0004, kInvalidateBuffer = 0x0008;
constexpr GLbitfield kFlushExplicit = 0x0010, kUnsynchronized = 0x0020;
constexpr GLbitfield kDefinedBits = 0x00FF;  // up to GL_MAP_COHERENT_BIT

// The access bits GL refuses together (the INVALID_OPERATION list of 6.3).
bool conflicting(GLbitfield access) {
  if (!(access & (kRead | kWrite))) return true;
  if ((access & kRead) && (access & (kInvalidateRange | kInvalidateBuffer | kUnsynchronized))) {
    return true;
  }
  return (access & kFlushExplicit) && !(access & kWrite);
}

}  // namespace

GLenum map_range_error(int64_t offset, int64_t length, GLbitfield access, MapTarget buffer) {
  if (offset < 0 || length < 0 || (access & ~kDefinedBits)) return kInvalidValue;
  if (length == 0 || conflicting(access) || buffer.mapped) return kInvalidOperation;
  if (buffer.size >= 0 && offset > buffer.size - length) return kInvalidValue;
  return 0;
}

GLbitfield map_access_bits(GLenum access) {
  constexpr GLenum kReadOnly = 0x88B8, kWriteOnly = 0x88B9, kReadWrite = 0x88BA;
  switch (access) {
    case kReadOnly: return kRead;
    case kWriteOnly: return kWrite;
    case kReadWrite: return kRead | kWrite;
    default: return 0;
  }
}

}  // namespace icd
