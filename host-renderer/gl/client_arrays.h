// Client-side arrays arrive as bytes and go into host-only scratch buffers,
// so GL never sees a guest pointer; buffer offsets are used only while a
// buffer is bound. Shared by generic vertex attributes and the fixed-function
// arrays of desktop GL.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "gl/context_impl.h"
#include "wire/reader.h"
#include "wire/result.h"

namespace host {

// Points an array at the guest's data: `set` receives the pointer argument
// for GL (an offset into the bound array buffer, or 0 into scratch buffer
// `scratch_index` holding the client bytes at [start, start + size)).
wire::Status set_array_pointer(GlContextState::Impl& st, size_t scratch_index, uint64_t start,
                               const wire::Data& data,
                               const std::function<void(const void*)>& set);

// A buffer of the context's that stays empty: where a vertex array object's
// null client pointer goes (GL reads nothing from it, never host memory).
GLuint empty_array_buffer(GlContextState::Impl& st);

// Points an array at an empty scratch buffer, for an array whose buffer was
// deleted (its offset must never become a pointer): `set` receives the
// pointer argument (0) with scratch buffer `scratch_index` bound.
void park_array(GlContextState::Impl& st, size_t scratch_index,
                const std::function<void(const void*)>& set);

// The buffer each generic attribute of the current vertex array reads from
// (0: none or client memory), by attribute index.
std::vector<GLuint> attribute_buffers(GlContextState::Impl& st);

// park_array for generic attribute `index`.
void park_attribute(GlContextState::Impl& st, GLuint index);

// Puts client bytes at [start, start + size) of `buffer`, bound to `target`.
void upload_scratch(GlContextState::Impl& st, GLenum target, GLuint buffer, uint64_t start,
                    const wire::Data& data);
// The usage hint of buffers refilled for every draw (OpenGL ES 1.x has no
// GL_STREAM_DRAW).
GLenum scratch_usage(GlContextState::Impl& st);

}  // namespace host
