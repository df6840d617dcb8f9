// What an allocating GL command asks for (annotations.toml, [allocations]):
// the object it fills and its bytes, which the generated dispatch hands to
// GlContextState::Impl::admit_allocation before calling GL.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <optional>

#include "gl/memory_ledger.h"
#include "wire/object_type.h"

namespace host {

// Sizes saturate here instead of overflowing: no guest argument can wrap a
// charge around to a small number.
constexpr int64_t kSaturatedBytes = INT64_MAX;
// Arguments GL refuses on its own (negative sizes): nothing is allocated.
constexpr int64_t kRefusedByGl = -1;
// Sizes far past GL's limits (note_texture_size_limit()): GL's
// GL_INVALID_VALUE, raised without calling GL, which need not survive them.
constexpr int64_t kPastGlLimits = -2;

struct Allocation {
  wire::ObjectType kind;
  GLenum target = 0;      // the object is the one bound there (on `unit`)...
  GLenum unit = 0;        // GL_TEXTUREi; 0: the active texture unit
  GLuint object = 0;      // ...or this host name, when `named` (`target` then names its face)
  bool named = false;
  bool per_level = false; // one texture level (and face) rather than the whole object
  int64_t level = 0;
  bool mip_chain = false; // glGenerateMipmap: bytes follow from the base level
  int64_t samples = 0;    // multisampled storage for `level`: its bytes times this
  int64_t bytes = 0;      // kRefusedByGl, or up to kSaturatedBytes
  // The object whose storage this one uses (memory_ledger.h); kCount: none.
  HostObject uses{wire::ObjectType::kCount, 0};
};

// Where an allocation lands: the host object and its part (memory_ledger.h).
struct StoragePlace {
  GLuint object;
  uint32_t part;
};

// Looks the object up on the current host context (one glGetIntegerv for a
// bind target; a few more on another texture unit), raising no error of its
// own in contexts that have the commands. None when GL allocates nothing: a proxy or unknown target,
// nothing bound, a level out of range.
std::optional<StoragePlace> find_storage(const Allocation& a);

// GL's GL_MAX_TEXTURE_SIZE, from a context of the renderer. Sizes with a
// dimension far past it are kPastGlLimits: GL's GL_INVALID_VALUE, which the
// guest's limits would otherwise answer first with GL_OUT_OF_MEMORY.
void note_texture_size_limit(int64_t max_texture_size);

// Bytes per texel of an internal format: sized formats exactly, base formats
// as drivers store them, compressed ones at most 1, anything else 16 (the
// widest texel GL has).
int64_t texel_bytes(GLenum internalformat);

// glTexImage*, glCopyTexImage*: one level of one face.
int64_t image_bytes(GLenum internalformat, GLenum format, GLenum type, int64_t width,
                    int64_t height, int64_t depth);
// glTexStorage*: every level (and face) at once.
int64_t storage_bytes(GLenum target, GLenum internalformat, int64_t levels, int64_t width,
                      int64_t height, int64_t depth);
// Multisample textures and renderbuffers (samples 0: single-sampled).
int64_t multisample_bytes(GLenum internalformat, int64_t samples, int64_t width, int64_t height,
                          int64_t depth);

}  // namespace host
