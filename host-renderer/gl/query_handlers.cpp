// Queries whose answer size the host must work out: strings, uniform
// values, block parameters and pixels read back into client memory.
//
// Requests of the queries: annotations.toml [layouts]; their replies
// [replies], and for glReadPixels, glReadnPixels, glGetPolygonStipple and
// glGetPixelMap*: the image (or map) when the pixels named no pack buffer.
#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "gl/dispatch_support.h"
#include "gl/pixel_transfer.h"
#include "gl/read_back.h"
#include "gl/read_args.h"
#include "gl/gl_host_handlers.h"
#include "wire/gl_replies.h"

namespace host {
namespace {

void reply_string(DispatchEnv& env, const GLubyte* s) {
  const char* text = s ? reinterpret_cast<const char*>(s) : "";
  wire::encode_reply_glGetString(env.reply, text, std::strlen(text) + 1);
}

// Components of a uniform of GLSL type `type` (at most a 4x4 matrix).
size_t uniform_components(GLenum type) {
  switch (type) {
    case GL_FLOAT_VEC2: case GL_INT_VEC2: case GL_UNSIGNED_INT_VEC2: case GL_BOOL_VEC2:
    case GL_DOUBLE_VEC2: case GL_INT64_VEC2_ARB: case GL_UNSIGNED_INT64_VEC2_ARB: return 2;
    case GL_FLOAT_VEC3: case GL_INT_VEC3: case GL_UNSIGNED_INT_VEC3: case GL_BOOL_VEC3:
    case GL_DOUBLE_VEC3: case GL_INT64_VEC3_ARB: case GL_UNSIGNED_INT64_VEC3_ARB: return 3;
    case GL_FLOAT_VEC4: case GL_INT_VEC4: case GL_UNSIGNED_INT_VEC4: case GL_BOOL_VEC4:
    case GL_DOUBLE_VEC4: case GL_INT64_VEC4_ARB: case GL_UNSIGNED_INT64_VEC4_ARB:
    case GL_FLOAT_MAT2: case GL_DOUBLE_MAT2: return 4;
    case GL_FLOAT_MAT2x3: case GL_FLOAT_MAT3x2: case GL_DOUBLE_MAT2x3: case GL_DOUBLE_MAT3x2: return 6;
    case GL_FLOAT_MAT2x4: case GL_FLOAT_MAT4x2: case GL_DOUBLE_MAT2x4: case GL_DOUBLE_MAT4x2: return 8;
    case GL_FLOAT_MAT3: case GL_DOUBLE_MAT3: return 9;
    case GL_FLOAT_MAT3x4: case GL_FLOAT_MAT4x3: case GL_DOUBLE_MAT3x4: case GL_DOUBLE_MAT4x3: return 12;
    case GL_FLOAT_MAT4: case GL_DOUBLE_MAT4: return 16;
    default: return 1;
  }
}

// The type of the active uniform at `location` of `program`.
size_t components_at(GLuint program, GLint location) {
  GLint active = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &active);
  char name[256];
  for (GLint i = 0; i < active; ++i) {
    GLint size = 0;
    GLenum type = 0;
    GLsizei length = 0;
    glGetActiveUniform(program, static_cast<GLuint>(i), sizeof name, &length, &size, &type, name);
    const GLint base = glGetUniformLocation(program, name);
    if (base >= 0 && location >= base && location < base + size) return uniform_components(type);
  }
  return 1;
}

template <typename T, typename Get>
wire::Status get_uniform(DispatchEnv& env, wire::Reader& r, Get get) {
  wire::Args_glGetUniformfv a;  // the layout of every glGetUniform*
  WIRE_TRY(wire::decode_glGetUniformfv(r, a));
  GLuint program = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kProgram, a.program, NameUse::kExisting, &program));
  T values[16] = {};
  // GL writes nothing for a location it refuses (-1 among them): nor does the guest.
  const bool answered = answered_by_gl(env.state.impl(), [&] { get(program, a.location, values); });
  wire::encode_reply_glGetUniformfv(env.reply, values, answered ? components_at(program, a.location) * sizeof(T) : 0);
  return {};
}

}  // namespace

wire::Status handle_glGetString(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetString a;
  WIRE_TRY(wire::decode_glGetString(r, a));
  reply_string(env, glGetString(a.name));
  return {};
}

wire::Status handle_glGetStringi(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetStringi a;
  WIRE_TRY(wire::decode_glGetStringi(r, a));
  reply_string(env, glGetStringi(a.name, a.index));
  return {};
}

wire::Status handle_glGetUniformfv(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLfloat>(env, r, [](GLuint p, GLint l, GLfloat* v) {
    glGetUniformfv(p, l, v);
  });
}

wire::Status handle_glGetUniformiv(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLint>(env, r, [](GLuint p, GLint l, GLint* v) { glGetUniformiv(p, l, v); });
}

wire::Status handle_glGetUniformuiv(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLuint>(env, r, [](GLuint p, GLint l, GLuint* v) {
    glGetUniformuiv(p, l, v);
  });
}

wire::Status handle_glGetUniformdv(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLdouble>(env, r, [](GLuint p, GLint l, GLdouble* v) {
    glGetUniformdv(p, l, v);
  });
}

wire::Status handle_glGetUniformi64vARB(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLint64>(env, r, [](GLuint p, GLint l, GLint64* v) {
    glGetUniformi64vARB(p, l, v);
  });
}

wire::Status handle_glGetUniformui64vARB(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLuint64>(env, r, [](GLuint p, GLint l, GLuint64* v) {
    glGetUniformui64vARB(p, l, v);
  });
}

wire::Status handle_glGetUniformi64vNV(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLint64EXT>(env, r, [](GLuint p, GLint l, GLint64EXT* v) {
    glGetUniformi64vNV(p, l, v);
  });
}

wire::Status handle_glGetUniformui64vNV(DispatchEnv& env, wire::Reader& r) {
  return get_uniform<GLuint64EXT>(env, r, [](GLuint p, GLint l, GLuint64EXT* v) {
    glGetUniformui64vNV(p, l, v);
  });
}

namespace {

// An assembly program's string, as long as `length_of` says GL holds:
// GL raises its own error for a bad target or pname.
template <typename Length, typename Read>
void reply_program_string(DispatchEnv& env, GLenum pname, Length length_of, Read read) {
  GLint length = 0;
  if (pname == GL_PROGRAM_STRING_ARB) length_of(&length);
  std::string text(static_cast<size_t>(std::max(length, 0)), '\0');
  read(text.data());
  wire::encode_reply_glGetProgramStringARB(env.reply, text.data(), text.size());
}

}  // namespace

wire::Status handle_glGetProgramStringARB(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetProgramStringARB a;
  WIRE_TRY(wire::decode_glGetProgramStringARB(r, a));
  reply_program_string(
      env, a.pname, [&](GLint* length) { glGetProgramivARB(a.target, GL_PROGRAM_LENGTH_ARB, length); },
      [&](char* text) { glGetProgramStringARB(a.target, a.pname, text); });
  return {};
}

wire::Status handle_glGetNamedProgramStringEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetNamedProgramStringEXT a;
  WIRE_TRY(wire::decode_glGetNamedProgramStringEXT(r, a));
  GLuint program = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kAssemblyProgram, a.program, NameUse::kCreateOnUse, &program));
  reply_program_string(
      env, a.pname,
      [&](GLint* length) { glGetNamedProgramivEXT(program, a.target, GL_PROGRAM_LENGTH_ARB, length); },
      [&](char* text) { glGetNamedProgramStringEXT(program, a.target, a.pname, text); });
  return {};
}

namespace {

// A vertex array's pointer (GL_EXT_direct_state_access), a u64: an offset
// into the buffer the array reads, since the host lets no array of a named
// vertex array read client memory; 0 when GL refuses the query.
template <typename Get>
wire::Status reply_vertex_array_pointer(DispatchEnv& env, GLuint guest_vao, Get get) {
  auto& st = env.state.impl();
  uint64_t value = 0;
  if (guest_vao == 0) {
    refuse_call(st, GL_INVALID_OPERATION);  // as the host's other commands on a named vertex array
  } else {
    GLuint vao = 0;
    WIRE_TRY(st.translate(ObjectType::kVertexArray, guest_vao, NameUse::kExisting, &vao));
    void* pointer = nullptr;
    if (answered_by_gl(st, [&] { get(vao, &pointer); })) value = reinterpret_cast<uintptr_t>(pointer);
  }
  wire::encode_reply_glGetVertexArrayPointervEXT(env.reply, value);
  return {};
}

}  // namespace

wire::Status handle_glGetVertexArrayPointervEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetVertexArrayPointervEXT a;
  WIRE_TRY(wire::decode_glGetVertexArrayPointervEXT(r, a));
  return reply_vertex_array_pointer(env, a.vaobj, [&](GLuint vao, void** p) {
    glGetVertexArrayPointervEXT(vao, a.pname, p);
  });
}

wire::Status handle_glGetVertexArrayPointeri_vEXT(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetVertexArrayPointeri_vEXT a;
  WIRE_TRY(wire::decode_glGetVertexArrayPointeri_vEXT(r, a));
  return reply_vertex_array_pointer(env, a.vaobj, [&](GLuint vao, void** p) {
    glGetVertexArrayPointeri_vEXT(vao, a.index, a.pname, p);
  });
}

namespace {

// A query of a block's or buffer's values: one, or `indices` (the active
// members' indices) as many as GL counts for `counted`.
template <typename Query>
wire::Status reply_block_values(DispatchEnv& env, GLenum pname, GLenum indices, GLenum counted, Query query) {
  GLint count = 1;
  if (pname == indices) query(counted, &count);
  auto out = output_array(env, wire::size::nonnegative(count), sizeof(GLint), wire::size::kMaxEnumValues);
  if (!out) return out.error();
  if (out->refused) return refused_reply(env, 1);
  const bool answered = answered_by_gl(env.state.impl(), [&] { query(pname, static_cast<GLint*>(out->data)); });
  // a query GL refuses writes nothing
  wire::encode_reply_glGetActiveUniformBlockiv(env.reply, out->data, answered ? out->bytes : 0);
  return {};
}

}  // namespace

namespace {

// A pipeline's one value; the program of a stage, or its active program,
// as the guest names it.
template <typename Get>
wire::Status reply_pipeline_value(DispatchEnv& env, GLuint guest_pipeline, GLenum pname, Get get) {
  auto& st = env.state.impl();
  GLuint pipeline = 0;
  WIRE_TRY(st.translate(ObjectType::kProgramPipeline, guest_pipeline, NameUse::kExisting, &pipeline));
  GLint value = 0;
  const bool answered = answered_by_gl(st, [&] { get(pipeline, pname, &value); });
  switch (pname) {
    case GL_ACTIVE_PROGRAM:
    case GL_VERTEX_SHADER:
    case GL_FRAGMENT_SHADER:
    case GL_GEOMETRY_SHADER:
    case GL_TESS_CONTROL_SHADER:
    case GL_TESS_EVALUATION_SHADER:
    case GL_COMPUTE_SHADER: value = static_cast<GLint>(st.names(ObjectType::kProgram).reverse(value)); break;
    default: break;
  }
  env.reply.put_data(&value, answered ? sizeof value : 0);
  return {};
}

}  // namespace

wire::Status handle_glGetProgramPipelineiv(DispatchEnv& env, wire::Args_glGetProgramPipelineiv& a) {
  return reply_pipeline_value(env, a.pipeline, a.pname,
                              [](GLuint p, GLenum pname, GLint* v) { glGetProgramPipelineiv(p, pname, v); });
}

wire::Status handle_glGetProgramPipelineivEXT(DispatchEnv& env, wire::Args_glGetProgramPipelineivEXT& a) {
  return reply_pipeline_value(env, a.pipeline, a.pname,
                              [](GLuint p, GLenum pname, GLint* v) { glGetProgramPipelineivEXT(p, pname, v); });
}

namespace {

// GL leaves an internal-format answer unwritten where the query does not
// apply (GL_SAMPLES of a target without samples). No answer is negative,
// so room filled with -1 shows what GL wrote, and only that goes back: the
// rest of the program's array stays as it was.
template <typename T, typename Get>
wire::Status reply_written_values(DispatchEnv& env, GLsizei count, Get get) {
  auto out = output_array(env, wire::size::nonnegative(count), sizeof(T), 0);
  if (!out) return out.error();
  if (out->refused) return refused_reply(env, 1);
  T* values = static_cast<T*>(out->data);
  const size_t room = out->bytes / sizeof(T);
  std::fill_n(values, room, T{-1});
  const bool answered = answered_by_gl(env.state.impl(), [&] { get(values); });
  size_t written = 0;
  while (written < room && values[written] >= 0) ++written;
  env.reply.put_data(values, answered ? written * sizeof(T) : 0);
  return {};
}

}  // namespace

wire::Status handle_glGetInternalformativ(DispatchEnv& env, wire::Args_glGetInternalformativ& a) {
  return reply_written_values<GLint>(env, a.count, [&](GLint* v) {
    glGetInternalformativ(a.target, a.internalformat, a.pname, a.count, v);
  });
}

wire::Status handle_glGetInternalformati64v(DispatchEnv& env, wire::Args_glGetInternalformati64v& a) {
  return reply_written_values<GLint64>(env, a.count, [&](GLint64* v) {
    glGetInternalformati64v(a.target, a.internalformat, a.pname, a.count, v);
  });
}

wire::Status handle_glGetActiveUniformBlockiv(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetActiveUniformBlockiv a;
  WIRE_TRY(wire::decode_glGetActiveUniformBlockiv(r, a));
  GLuint program = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kProgram, a.program, NameUse::kExisting, &program));
  return reply_block_values(env, a.pname, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS,
                            [&](GLenum pname, GLint* out) {
                              glGetActiveUniformBlockiv(program, a.uniformBlockIndex, pname, out);
                            });
}

wire::Status handle_glGetActiveAtomicCounterBufferiv(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetActiveAtomicCounterBufferiv a;
  WIRE_TRY(wire::decode_glGetActiveAtomicCounterBufferiv(r, a));
  GLuint program = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kProgram, a.program, NameUse::kExisting, &program));
  return reply_block_values(env, a.pname, GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES,
                            GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS, [&](GLenum pname, GLint* out) {
                              glGetActiveAtomicCounterBufferiv(program, a.bufferIndex, pname, out);
                            });
}

wire::Status handle_glReadPixels(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glReadPixels a;
  WIRE_TRY(wire::decode_glReadPixels(r, a));
  return read_back_pixels(env, a.pixels, 2, a.format, a.type, a.width, a.height, 1, [&](void* p) {
    glReadPixels(a.x, a.y, a.width, a.height, a.format, a.type, p);
  });
}

wire::Status handle_glReadnPixels(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glReadnPixels a;
  WIRE_TRY(wire::decode_glReadnPixels(r, a));
  return read_back_pixels_within(env, a.data, 2, a.format, a.type, a.width, a.height, 1, a.bufSize,
                                 [&](GLsizei room, void* p) {
                                   glReadnPixels(a.x, a.y, a.width, a.height, a.format, a.type, room, p);
                                 });
}

// The 32x32 stipple as a bitmap under the pack state, like glReadPixels.
wire::Status handle_glGetPolygonStipple(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetPolygonStipple a;
  WIRE_TRY(wire::decode_glGetPolygonStipple(r, a));
  return read_back_image(env, a.mask, 2, GL_COLOR_INDEX, GL_BITMAP, 32, 32, 1,
                         [](void* p) { glGetPolygonStipple(static_cast<GLubyte*>(p)); });
}

namespace {

// Largest pixel map a driver offers (GL_MAX_PIXEL_MAP_TABLE is 256 in Mesa).
constexpr size_t kMaxPixelMapEntries = 65536;

// A pixel map of `T` entries, sized from GL: into the bound pack buffer at
// the offset the guest names, or sent back.
template <typename T, typename Read>
wire::Status get_pixel_map(DispatchEnv& env, wire::Reader& r, Read read) {
  wire::Args_glGetPixelMapfv a;  // the layout of every glGetPixelMap*
  WIRE_TRY(wire::decode_glGetPixelMapfv(r, a));
  const GLenum map = a.map;
  const wire::Data& destination = a.values;
  const bool to_buffer = destination.kind == wire::DataKind::kBufferOffset;
  if (map < GL_PIXEL_MAP_I_TO_I || map > GL_PIXEL_MAP_A_TO_A) {
    refuse_pixels(env.state.impl(), GL_INVALID_ENUM);
    if (!to_buffer) wire::encode_reply_glGetPixelMapfv(env.reply, nullptr, 0);
    return {};
  }
  if (to_buffer) {
    if (!buffer_bound(GL_PIXEL_PACK_BUFFER_BINDING)) {
      return wire::make_error(wire::Errc::kBadValue, "pack offset without a pack buffer");
    }
    read(map, reinterpret_cast<T*>(static_cast<uintptr_t>(destination.offset)));
    return {};
  }
  GLint entries = 0;
  glGetIntegerv(map - GL_PIXEL_MAP_I_TO_I + GL_PIXEL_MAP_I_TO_I_SIZE, &entries);
  const size_t count = std::min(wire::size::nonnegative(entries), kMaxPixelMapEntries);
  auto out = output_array(env, count, sizeof(T), 1);
  if (!out) return out.error();
  if (out->refused) return refused_reply(env, 1);
  read(map, static_cast<T*>(out->data));
  wire::encode_reply_glGetPixelMapfv(env.reply, out->data, count * sizeof(T));  // every glGetPixelMap*'s reply
  return {};
}

}  // namespace

wire::Status handle_glGetPixelMapfv(DispatchEnv& env, wire::Reader& r) {
  return get_pixel_map<GLfloat>(env, r, [](GLenum map, GLfloat* v) { glGetPixelMapfv(map, v); });
}

wire::Status handle_glGetPixelMapuiv(DispatchEnv& env, wire::Reader& r) {
  return get_pixel_map<GLuint>(env, r, [](GLenum map, GLuint* v) { glGetPixelMapuiv(map, v); });
}

wire::Status handle_glGetPixelMapusv(DispatchEnv& env, wire::Reader& r) {
  return get_pixel_map<GLushort>(env, r, [](GLenum map, GLushort* v) { glGetPixelMapusv(map, v); });
}

wire::Status handle_glGetVertexAttribPointerv(DispatchEnv&, wire::Reader&) {
  return guest_only("glGetVertexAttribPointerv");
}

wire::Status handle_glGetPointerv(DispatchEnv&, wire::Reader&) {
  return guest_only("glGetPointerv");
}

wire::Status handle_glDebugMessageCallback(DispatchEnv&, wire::Reader&) {
  return guest_only("glDebugMessageCallback");
}

}  // namespace host
