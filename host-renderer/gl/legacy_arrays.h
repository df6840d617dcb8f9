// The fixed-function client arrays of desktop GL (glVertexPointer & co.)
// whose buffer a guest deletes: like generic attributes, they are parked on
// a scratch buffer so their offsets never become host pointers.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <span>
#include <vector>

#include "gl/context_impl.h"

namespace host {

struct LegacyArray {
  int slot;       // which array (legacy_handlers.cpp)
  uint32_t unit;  // texture unit of a texture coordinate array
};

struct LegacyArrayBuffer {
  LegacyArray array;
  GLuint buffer;  // 0: client memory
};

// Every fixed-function array of the current vertex array object and the
// buffer it reads from; none outside compatibility contexts.
std::vector<LegacyArrayBuffer> legacy_array_buffers(GlContextState::Impl& st);

// Arrays of the current vertex array object that read from one of
// `buffers` (host names); none outside compatibility contexts.
std::vector<LegacyArray> legacy_arrays_using(GlContextState::Impl& st,
                                             std::span<const GLuint> buffers);
void park_legacy_array(GlContextState::Impl& st, const LegacyArray& array);

}  // namespace host
