// Images GL writes back for the guest: into the bound pack buffer at the
// offset the guest names, or into zeroed room sent back as the reply.
#pragma once

#include <epoxy/gl.h>

#include <algorithm>
#include <cstdint>

#include "gl/dispatch_support.h"
#include "gl/pixel_transfer.h"
#include "wire/reader.h"
#include "wire/sizes.h"

namespace host {

// What GL writes for `read`: into the bound pack buffer at the offset
// `target` names, or into the room `make_room` gives, sent back as the reply.
template <typename MakeRoom, typename Read>
wire::Status read_back(DispatchEnv& env, const wire::Data& target, MakeRoom make_room, Read read) {
  if (target.kind == wire::DataKind::kBufferOffset) {
    if (!pixel_buffer_bound(env.state.impl(), GL_PIXEL_PACK_BUFFER_BINDING)) {
      return wire::make_error(wire::Errc::kBadValue, "pack offset without a pack buffer");
    }
    read(reinterpret_cast<void*>(static_cast<uintptr_t>(target.offset)));
    return {};
  }
  wire::Result<OutBuffer> out = make_room();
  if (!out) return out.error();
  if (out->refused) return refused_reply(env, 1);
  if (out->bytes > 0) read(out->data);
  env.reply.put_data(out->data, out->bytes);
  return {};
}

// read_back() of an image: room for all of it under the pack state.
template <typename Read>
wire::Status read_back_image(DispatchEnv& env, const wire::Data& target, int dims, GLenum format,
                             GLenum type, int64_t width, int64_t height, int64_t depth, Read read) {
  return read_back(env, target, [&] {
    return output_pixels(env.state.impl(), dims, format, type, width, height, depth);
  }, read);
}

// read_back_image() of pixels in the guest's format and type: a pair the
// host cannot size is GL's error, not run.
template <typename Read>
wire::Status read_back_pixels(DispatchEnv& env, const wire::Data& target, int dims, GLenum format,
                              GLenum type, int64_t width, int64_t height, int64_t depth, Read read) {
  if (!wire::size::readable_pixels(format, type)) {
    refuse_pixels(env.state.impl(), wire::size::known_pixels(format, type) ? GL_INVALID_OPERATION
                                                                           : GL_INVALID_ENUM);
    if (target.kind != wire::DataKind::kBufferOffset) env.reply.put_data(nullptr, 0);
    return {};
  }
  return read_back_image(env, target, dims, format, type, width, height, depth, read);
}

// read_back_pixels() for a command that takes the room it may write
// (`read(bufSize, pointer)`): GL gets the room the host made as bufSize; a
// guest bufSize smaller than the image is GL's error.
template <typename Read>
wire::Status read_back_pixels_within(DispatchEnv& env, const wire::Data& destination, int dims, GLenum format,
                         GLenum type, int64_t width, int64_t height, int64_t depth, GLsizei buf_size,
                         Read read) {
  auto& st = env.state.impl();
  const bool to_buffer = destination.kind == wire::DataKind::kBufferOffset;
  auto bytes = wire::size::image_bytes(gl_pixel_store(st, true, dims), dims, format, type, width,
                                       height, depth);
  if (!to_buffer && bytes && *bytes > static_cast<size_t>(std::max(buf_size, 0))) {
    refuse_pixels(st, GL_INVALID_OPERATION);
    env.reply.put_data(nullptr, 0);
    return {};
  }
  if (!to_buffer && bytes && *bytes == 0) {
    // Nothing to write, and GL writes nothing with no room: it still judges
    // the texture (a level without storage is its error).
    read(0, nullptr);
    env.reply.put_data(nullptr, 0);
    return {};
  }
  const auto room = static_cast<GLsizei>(bytes && !to_buffer ? *bytes : buf_size);
  return read_back_pixels(env, destination, dims, format, type, width, height, depth,
                          [&](void* p) { read(room, p); });
}

}  // namespace host
