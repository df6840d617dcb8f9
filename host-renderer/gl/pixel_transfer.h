// Pixel transfers between guest bytes and GL: uploads, read-backs,
// bitmaps and stipples, each sized under the pixel-store state GL has.
//
// The host asks GL for that state right before each transfer instead of
// mirroring glPixelStore*: GL then decides what it accepted (glPixelStoref,
// refused values, glPopClientAttrib, display lists all included), and a few
// glGetIntegerv cost little next to a transfer (docs/host.md).
#pragma once

#include <epoxy/gl.h>

#include <cstdint>

#include "gl/context_impl.h"
#include "gl/dispatch_support.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/sizes.h"

namespace host {

// The pack (or unpack) state of the current context for an image of `dims`
// dimensions, asked from GL for the parameters the context accepts and the
// image uses (the image height and skipped images only for volumes); the
// others keep their defaults.
wire::size::PixelStore gl_pixel_store(GlContextState::Impl& st, bool pack, int dims);

struct PixelSource {
  const void* data = nullptr;
  // Not run, its error waiting: GL_INVALID_ENUM for a pair the host cannot
  // size, GL_OUT_OF_MEMORY for zeros past the guest's memory limit.
  bool refused = false;
};

// What GL reads for an upload of a `dims`-dimensional image: a bound unpack
// buffer's offset (GL checks it against the buffer), NULL where `nullable`
// (glTexImage* allocates without data) or nothing is read, or guest bytes
// at least as many as GL reads. `guest_format`: the guest chose format and
// type (glDrawPixels, glTexImage*), rather than the command fixing them
// (glBitmap and stipples are colour-index bitmaps).
wire::Result<PixelSource> input_pixels(GlContextState::Impl& st, const wire::Data& data,
                                       bool nullable, bool guest_format, int dims, GLenum format,
                                       GLenum type, int64_t width, int64_t height, int64_t depth);

// Zeroed room for everything GL writes for a `dims`-dimensional image
// (skipped rows and pixels included); a pair the host cannot size is an error.
wire::Result<OutBuffer> output_pixels(GlContextState::Impl& st, int dims, GLenum format,
                                      GLenum type, int64_t width, int64_t height, int64_t depth);

// Records the error of a transfer the host refuses (GL_INVALID_ENUM for a
// pair it cannot size) for the guest's next glGetError.
void refuse_pixels(GlContextState::Impl& st, GLenum error = GL_INVALID_ENUM);

}  // namespace host
