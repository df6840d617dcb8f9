// Texture images read back: glGetTexImage and glGetCompressedTexImage by
// target, their direct-state-access forms by name (a whole level or a
// region) and GL_EXT_direct_state_access's by name or texture unit. The host sizes every image from GL and its pack state, and hands
// GL no more room than that (as bufSize where the command takes one).
//
// Wire layouts: annotations.toml [layouts]. The pixels are a pack-buffer
// offset (no reply) or null: the reply is Data, the image;
// glGetTextureSubImage's and glGetCompressedTextureSubImage's start with u32
// dims, the image's dimensions under the pack state.
#include <epoxy/gl.h>

#include <algorithm>
#include <cstdint>

#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "gl/pixel_transfer.h"
#include "gl/read_args.h"
#include "gl/read_back.h"

namespace host {
namespace {

// Dimensions of a texture target's images, as the pack state applies them.
int image_dims(GLenum target) {
  if (target == 0) return 3;  // not known: volumes are the widest case
  switch (target) {
    case GL_TEXTURE_1D: return 1;
    // A whole cube map (read by name only) is its six faces, one after another.
    case GL_TEXTURE_3D: case GL_TEXTURE_2D_ARRAY: case GL_TEXTURE_CUBE_MAP_ARRAY: case GL_TEXTURE_CUBE_MAP: return 3;
    default: return 2;
  }
}

// A texture level as GL reports it. A target, name or level GL refuses
// reads 0 and leaves the error the read itself would have raised.
struct Level {
  GLenum target = 0;
  GLint width = 0, height = 0, depth = 0;
  GLint compressed = 0, compressed_bytes = 0;
};

// The level through `query(pname, GLint*)`, GL's by target or by name.
template <typename Query>
Level describe_level(GLenum target, bool compressed, Query query) {
  Level l;
  l.target = target;
  query(GL_TEXTURE_WIDTH, &l.width);
  query(GL_TEXTURE_HEIGHT, &l.height);
  query(GL_TEXTURE_DEPTH, &l.depth);
  if (!compressed) return l;
  query(GL_TEXTURE_COMPRESSED, &l.compressed);
  if (l.compressed) query(GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &l.compressed_bytes);
  return l;
}

Level level_of_target(GLenum target, GLint level, bool compressed) {
  return describe_level(target, compressed, [&](GLenum pname, GLint* v) {
    glGetTexLevelParameteriv(target, level, pname, v);
  });
}

// GL describes a cube map's level by its first face; read as a whole (by
// name, or GL_EXT_direct_state_access's GL_TEXTURE_CUBE_MAP target), the
// level is all six, one after another.
Level whole_cube(Level l) {
  if (l.target == GL_TEXTURE_CUBE_MAP && l.width > 0) {
    l.depth = 6;
    l.compressed_bytes *= 6;
  }
  return l;
}

// The target whose level parameters describe `target`'s image: a whole cube
// map's are its first face's.
GLenum described_by(GLenum target) {
  return target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : target;
}

Level level_of_texture(GlContextState::Impl& st, GLuint texture, GLint level, bool compressed) {
  // A name never bound is no texture yet (glIsTexture): GL refuses the read
  // itself (GL_INVALID_OPERATION), where a level query's error would differ.
  if (!glIsTexture(texture)) return Level{};
  return whole_cube(describe_level(texture_target(st, texture), compressed, [&](GLenum pname, GLint* v) {
    glGetTextureLevelParameteriv(texture, level, pname, v);
  }));
}

// GL_EXT_direct_state_access: a named texture's image at `target`, or the
// one texture unit `unit` has bound there.
Level level_of_named_target(GLuint texture, GLenum target, GLint level, bool compressed) {
  return whole_cube(describe_level(target, compressed, [&](GLenum pname, GLint* v) {
    glGetTextureLevelParameterivEXT(texture, described_by(target), level, pname, v);
  }));
}

// Read with the unit active for a moment: Mesa's multitexture level query
// refuses cube faces. A unit GL has not is no level (GL refuses the read).
Level level_of_unit(GLenum unit, GLenum target, GLint level, bool compressed) {
  if (!texture_unit_exists(unit)) return Level{};
  GLint active = GL_TEXTURE0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
  glActiveTexture(unit);
  const Level l = describe_level(target, compressed, [&](GLenum pname, GLint* v) {
    glGetTexLevelParameteriv(described_by(target), level, pname, v);
  });
  glActiveTexture(static_cast<GLenum>(active));
  return whole_cube(l);
}

// Sizes are products of guest-set values: worked out wide, then saturated
// (a size past the reply limit loses the context, as for any image).
using Wide = __int128;
int64_t saturate(Wide v) { return v > INT64_MAX ? INT64_MAX : static_cast<int64_t>(v); }

GLint pack_value(GLenum pname) {
  GLint v = 0;
  glGetIntegerv(pname, &v);
  return std::max(v, 0);
}

// Bytes GL writes for a width x height x depth region of a compressed
// level: under the pack state's compressed block layout (OpenGL 4.2)
// wire::size::compressed_layout(); otherwise tightly packed blocks, at most
// the whole level's image.
int64_t compressed_bytes(const Level& l, int dims, int64_t width, int64_t height, int64_t depth) {
  wire::size::PixelStore store;
  store.block_width = pack_value(GL_PACK_COMPRESSED_BLOCK_WIDTH);
  store.block_height = pack_value(GL_PACK_COMPRESSED_BLOCK_HEIGHT);
  store.block_depth = dims >= 3 ? pack_value(GL_PACK_COMPRESSED_BLOCK_DEPTH) : 0;
  store.block_size = pack_value(GL_PACK_COMPRESSED_BLOCK_SIZE);
  store.row_length = pack_value(GL_PACK_ROW_LENGTH);
  store.image_height = pack_value(GL_PACK_IMAGE_HEIGHT);
  store.skip_pixels = pack_value(GL_PACK_SKIP_PIXELS);
  store.skip_rows = pack_value(GL_PACK_SKIP_ROWS);
  store.skip_images = pack_value(GL_PACK_SKIP_IMAGES);
  const auto layout = wire::size::compressed_layout(store, dims, width, height, depth);
  if (!layout) return l.compressed_bytes;
  return saturate(Wide{layout->skip} + Wide{layout->slices - 1} * layout->slice +
                  Wide{layout->rows - 1} * layout->row + layout->used);
}

// A compressed image of `bytes` for `read(bufSize, pointer)`, as
// read_back_pixels_within().
template <typename Read>
wire::Status read_compressed(DispatchEnv& env, const wire::Data& destination, const Level& l,
                             int64_t bytes, GLsizei buf_size, Read read) {
  const bool to_buffer = destination.kind == wire::DataKind::kBufferOffset;
  if (!to_buffer && (!l.compressed || bytes > buf_size)) {
    refuse_pixels(env.state.impl(), GL_INVALID_OPERATION);
    env.reply.put_data(nullptr, 0);
    return {};
  }
  const auto room = static_cast<GLsizei>(to_buffer ? buf_size : bytes);
  return read_back(env, destination,
                   [&] { return output_array(env, static_cast<size_t>(bytes), 1, 0); },
                   [&](void* p) { read(room, p); });
}

wire::Result<GLuint> texture_name(DispatchEnv& env, GLuint guest) {
  GLuint texture = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kTexture, guest, NameUse::kExisting, &texture));
  return texture;
}

constexpr GLsizei kNoLimit = INT32_MAX;

// glGetnTexImage and its ARB twin are separate entry points (Mesa 22.3 has
// only the ARB one): each reaches the driver under its own name.
wire::Status get_n_tex_image(DispatchEnv& env, wire::Reader& r, PFNGLGETNTEXIMAGEPROC get) {
  wire::Args_glGetnTexImage a;
  WIRE_TRY(wire::decode_glGetnTexImage(r, a));
  const Level l = level_of_target(a.target, a.level, false);
  return read_back_pixels_within(env, a.pixels, image_dims(a.target), a.format, a.type, l.width,
                                 l.height, l.depth, a.bufSize, [&](GLsizei room, void* p) {
                                   get(a.target, a.level, a.format, a.type, room, p);
                                 });
}

// Its compressed twin, the same way.
wire::Status get_n_compressed_tex_image(DispatchEnv& env, wire::Reader& r,
                                        PFNGLGETNCOMPRESSEDTEXIMAGEPROC get) {
  wire::Args_glGetnCompressedTexImage a;
  WIRE_TRY(wire::decode_glGetnCompressedTexImage(r, a));
  const Level l = level_of_target(a.target, a.lod, true);
  const int64_t bytes = compressed_bytes(l, image_dims(a.target), l.width, l.height, l.depth);
  return read_compressed(env, a.pixels, l, bytes, a.bufSize,
                         [&](GLsizei room, void* p) { get(a.target, a.lod, room, p); });
}

}  // namespace

wire::Status handle_glGetTexImage(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetTexImage a;
  WIRE_TRY(wire::decode_glGetTexImage(r, a));
  const Level l = level_of_target(a.target, a.level, false);
  return read_back_pixels_within(env, a.pixels, image_dims(a.target), a.format, a.type, l.width,
                                 l.height, l.depth, kNoLimit, [&](GLsizei, void* p) {
                                   glGetTexImage(a.target, a.level, a.format, a.type, p);
                                 });
}

wire::Status handle_glGetnTexImage(DispatchEnv& env, wire::Reader& r) {
  return get_n_tex_image(env, r, glGetnTexImage);
}

wire::Status handle_glGetnTexImageARB(DispatchEnv& env, wire::Reader& r) {
  return get_n_tex_image(env, r, glGetnTexImageARB);
}

wire::Status handle_glGetTextureImage(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetTextureImage a;
  WIRE_TRY(wire::decode_glGetTextureImage(r, a));
  auto texture = texture_name(env, a.texture);
  if (!texture) return texture.error();
  const Level l = level_of_texture(env.state.impl(), *texture, a.level, false);
  return read_back_pixels_within(env, a.pixels, image_dims(l.target), a.format, a.type, l.width,
                                 l.height, l.depth, a.bufSize, [&](GLsizei room, void* p) {
                                   glGetTextureImage(*texture, a.level, a.format, a.type, room, p);
                                 });
}

wire::Status handle_glGetTextureImageEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetTextureImageEXT a;
  WIRE_TRY(wire::decode_glGetTextureImageEXT(r, a));
  auto texture = texture_name(env, a.texture);
  if (!texture) return texture.error();
  const Level l = level_of_named_target(*texture, a.target, a.level, false);
  return read_back_pixels_within(env, a.pixels, image_dims(a.target), a.format, a.type, l.width, l.height,
                                 l.depth, kNoLimit, [&](GLsizei, void* p) {
                                   glGetTextureImageEXT(*texture, a.target, a.level, a.format, a.type, p);
                                 });
}

wire::Status handle_glGetMultiTexImageEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetMultiTexImageEXT a;
  WIRE_TRY(wire::decode_glGetMultiTexImageEXT(r, a));
  const Level l = level_of_unit(a.texunit, a.target, a.level, false);
  return read_back_pixels_within(env, a.pixels, image_dims(a.target), a.format, a.type, l.width, l.height,
                                 l.depth, kNoLimit, [&](GLsizei, void* p) {
                                   glGetMultiTexImageEXT(a.texunit, a.target, a.level, a.format, a.type, p);
                                 });
}

wire::Status handle_glGetTextureSubImage(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetTextureSubImage a;
  WIRE_TRY(wire::decode_glGetTextureSubImage(r, a));
  const GLint level = a.level, x = a.xoffset, y = a.yoffset, z = a.zoffset;
  const GLsizei width = a.width, height = a.height, depth = a.depth, buf_size = a.bufSize;
  const GLenum format = a.format, type = a.type;
  const wire::Data& destination = a.pixels;
  auto texture = texture_name(env, a.texture);
  if (!texture) return texture.error();
  const Level l = level_of_texture(env.state.impl(), *texture, level, false);
  // Sized for the part inside the level (a cube map's faces count as depth):
  // a region reaching past it is GL's error, raised before it writes.
  const int64_t inside_depth = std::min<int64_t>(depth, std::max(l.depth, 6));
  const int dims = image_dims(l.target);
  if (destination.kind != wire::DataKind::kBufferOffset) env.reply.put(static_cast<uint32_t>(dims));
  return read_back_pixels_within(env, destination, dims, format, type,
                                 std::min(width, l.width), std::min(height, l.height), inside_depth,
                                 buf_size, [&](GLsizei room, void* p) {
                                   glGetTextureSubImage(*texture, level, x, y, z, width, height,
                                                        depth, format, type, room, p);
                                 });
}

wire::Status handle_glGetCompressedTexImage(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetCompressedTexImage a;
  WIRE_TRY(wire::decode_glGetCompressedTexImage(r, a));
  const Level l = level_of_target(a.target, a.level, true);
  const int64_t bytes = compressed_bytes(l, image_dims(a.target), l.width, l.height, l.depth);
  return read_compressed(env, a.img, l, bytes, kNoLimit,
                         [&](GLsizei, void* p) { glGetCompressedTexImage(a.target, a.level, p); });
}

wire::Status handle_glGetnCompressedTexImage(DispatchEnv& env, wire::Reader& r) {
  return get_n_compressed_tex_image(env, r, glGetnCompressedTexImage);
}

wire::Status handle_glGetnCompressedTexImageARB(DispatchEnv& env, wire::Reader& r) {
  return get_n_compressed_tex_image(env, r, glGetnCompressedTexImageARB);
}

wire::Status handle_glGetCompressedTextureImage(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetCompressedTextureImage a;
  WIRE_TRY(wire::decode_glGetCompressedTextureImage(r, a));
  auto texture = texture_name(env, a.texture);
  if (!texture) return texture.error();
  const Level l = level_of_texture(env.state.impl(), *texture, a.level, true);
  const int64_t bytes = compressed_bytes(l, image_dims(l.target), l.width, l.height, l.depth);
  return read_compressed(env, a.pixels, l, bytes, a.bufSize, [&](GLsizei room, void* p) {
    glGetCompressedTextureImage(*texture, a.level, room, p);
  });
}

wire::Status handle_glGetCompressedTextureImageEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetCompressedTextureImageEXT a;
  WIRE_TRY(wire::decode_glGetCompressedTextureImageEXT(r, a));
  auto texture = texture_name(env, a.texture);
  if (!texture) return texture.error();
  const Level l = level_of_named_target(*texture, a.target, a.lod, true);
  const int64_t bytes = compressed_bytes(l, image_dims(a.target), l.width, l.height, l.depth);
  return read_compressed(env, a.img, l, bytes, kNoLimit, [&](GLsizei, void* p) {
    glGetCompressedTextureImageEXT(*texture, a.target, a.lod, p);
  });
}

wire::Status handle_glGetCompressedMultiTexImageEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetCompressedMultiTexImageEXT a;
  WIRE_TRY(wire::decode_glGetCompressedMultiTexImageEXT(r, a));
  const Level l = level_of_unit(a.texunit, a.target, a.lod, true);
  const int64_t bytes = compressed_bytes(l, image_dims(a.target), l.width, l.height, l.depth);
  return read_compressed(env, a.img, l, bytes, kNoLimit, [&](GLsizei, void* p) {
    glGetCompressedMultiTexImageEXT(a.texunit, a.target, a.lod, p);
  });
}

wire::Status handle_glGetCompressedTextureSubImage(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetCompressedTextureSubImage a;
  WIRE_TRY(wire::decode_glGetCompressedTextureSubImage(r, a));
  const GLint level = a.level, x = a.xoffset, y = a.yoffset, z = a.zoffset;
  const GLsizei width = a.width, height = a.height, depth = a.depth, buf_size = a.bufSize;
  const wire::Data& destination = a.pixels;
  auto texture = texture_name(env, a.texture);
  if (!texture) return texture.error();
  const Level l = level_of_texture(env.state.impl(), *texture, level, true);
  // The region's size is the format's blocks, which GL does not report
  // reliably: the room is the bound above, and GL checks bufSize itself.
  const int dims = image_dims(l.target);
  const int64_t bytes = std::min<int64_t>(compressed_bytes(l, dims, width, height, depth), std::max(buf_size, 0));
  if (destination.kind != wire::DataKind::kBufferOffset) env.reply.put(static_cast<uint32_t>(dims));
  return read_compressed(env, destination, l, bytes, buf_size, [&](GLsizei room, void* p) {
    glGetCompressedTextureSubImage(*texture, level, x, y, z, width, height, depth, room, p);
  });
}

}  // namespace host
