// GL_EXT_memory_object and GL_EXT_memory_object_fd: GL storage placed in
// device memory the guest's Vulkan exported. The guest names an export by
// the number its fd's file holds, never by an fd; the export's fd is the
// renderer's own (host-renderer/vk/memory_fds.cpp), and an import takes it.
// A driver places storage where it is told, so every range is checked
// against the bytes imported before GL sees it: a buffer's exactly, a
// texture's by the texels its levels hold at least (a driver may pad rows
// and levels further, which it checks itself against the memory's size).
#include <epoxy/gl.h>
#include <unistd.h>

#include <optional>

#include "gl/allocation.h"
#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "wire/gl_replies.h"

namespace host {
namespace {

// The host's memory object behind `guest`, when it has memory imported and
// `bytes` at `offset` lie within it; otherwise GL's error, raised for the
// guest, and none. Bytes GL refuses on its own (negative sizes) are GL's.
wire::Result<std::optional<GLuint>> placed(DispatchEnv& env, GLuint guest, uint64_t offset, int64_t bytes) {
  auto& st = env.state.impl();
  GLuint memory = 0;
  WIRE_TRY(st.translate(ObjectType::kMemoryObject, guest, NameUse::kExisting, &memory));
  const auto imported = st.share->imported_memory.find(guest);
  if (guest == 0 || memory == kNoSuchObject || imported == st.share->imported_memory.end()) {
    // No memory object, or one without memory (Mesa's error for it).
    refuse_call(st, guest == 0 || memory == kNoSuchObject ? GL_INVALID_VALUE : GL_INVALID_OPERATION);
    return std::optional<GLuint>{};
  }
  const uint64_t size = imported->second;
  if (bytes != kRefusedByGl && (bytes < 0 || offset > size || static_cast<uint64_t>(bytes) > size - offset)) {
    refuse_call(st, GL_INVALID_VALUE);
    return std::optional<GLuint>{};
  }
  return std::optional<GLuint>{memory};
}

int64_t buffer_bytes(GLsizeiptr size) { return size < 0 ? kRefusedByGl : static_cast<int64_t>(size); }

// Runs `call` with the host's memory object when `bytes` at `offset` fit
// the memory imported into `guest`; otherwise GL is not called.
template <typename Call>
wire::Status in_memory(DispatchEnv& env, GLuint guest, uint64_t offset, int64_t bytes, Call call) {
  auto memory = placed(env, guest, offset, bytes);
  if (!memory) return memory.error();
  if (*memory) call(**memory);
  return {};
}

// The same for storage of the named `object` of kind `t`: `call` takes
// its host name, then the memory object's.
template <typename Call>
wire::Status named_in_memory(DispatchEnv& env, ObjectType t, GLuint object, GLuint guest_memory, uint64_t offset,
                             int64_t bytes, Call call) {
  GLuint host = 0;
  WIRE_TRY(env.state.impl().translate(t, object, NameUse::kExisting, &host));
  return in_memory(env, guest_memory, offset, bytes, [&](GLuint memory) { call(host, memory); });
}

}  // namespace

wire::Status handle_glImportMemoryFdEXT(DispatchEnv& env, wire::Args_glImportMemoryFdEXT& a) {
  auto& st = env.state.impl();
  GLuint memory = 0;
  WIRE_TRY(st.translate(ObjectType::kMemoryObject, a.memory, NameUse::kExisting, &memory));
  GLboolean imported = GL_FALSE;
  std::optional<int> taken;
  if (a.handleType != GL_HANDLE_TYPE_OPAQUE_FD_EXT) {
    refuse_call(st, GL_INVALID_ENUM);
  } else if (a.memory == 0 || memory == kNoSuchObject || a.size == 0) {
    refuse_call(st, GL_INVALID_VALUE);
  } else if (st.share->imported_memory.contains(a.memory)) {
    refuse_call(st, GL_INVALID_OPERATION);  // its memory is immutable
  } else if (taken = env.take_export ? (*env.take_export)(static_cast<uint32_t>(a.fd), a.size) : std::nullopt;
             !taken) {
    refuse_call(st, GL_INVALID_VALUE);  // no export of this guest's of that many bytes
  } else if (answered_by_gl(st, [&] { glImportMemoryFdEXT(memory, a.size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, *taken); })) {
    st.share->imported_memory[a.memory] = a.size;  // what GL was told, at most what the export holds
    imported = GL_TRUE;
  } else {
    ::close(*taken);  // GL took no fd
  }
  wire::encode_reply_glImportMemoryFdEXT(env.reply, imported);
  return {};
}

wire::Status handle_glBufferStorageMemEXT(DispatchEnv& env, wire::Args_glBufferStorageMemEXT& a) {
  return in_memory(env, a.memory, a.offset, buffer_bytes(a.size),
                   [&](GLuint memory) { glBufferStorageMemEXT(a.target, a.size, memory, a.offset); });
}

wire::Status handle_glNamedBufferStorageMemEXT(DispatchEnv& env, wire::Args_glNamedBufferStorageMemEXT& a) {
  return named_in_memory(env, ObjectType::kBuffer, a.buffer, a.memory, a.offset, buffer_bytes(a.size),
                         [&](GLuint buffer, GLuint memory) {
                           glNamedBufferStorageMemEXT(buffer, a.size, memory, a.offset);
                         });
}

wire::Status handle_glTexStorageMem1DEXT(DispatchEnv& env, wire::Args_glTexStorageMem1DEXT& a) {
  return in_memory(env, a.memory, a.offset, storage_bytes(a.target, a.internalFormat, a.levels, a.width, 1, 1),
                   [&](GLuint memory) {
                     glTexStorageMem1DEXT(a.target, a.levels, a.internalFormat, a.width, memory, a.offset);
                   });
}

wire::Status handle_glTexStorageMem2DEXT(DispatchEnv& env, wire::Args_glTexStorageMem2DEXT& a) {
  return in_memory(
      env, a.memory, a.offset, storage_bytes(a.target, a.internalFormat, a.levels, a.width, a.height, 1),
      [&](GLuint memory) {
        glTexStorageMem2DEXT(a.target, a.levels, a.internalFormat, a.width, a.height, memory, a.offset);
      });
}

wire::Status handle_glTexStorageMem3DEXT(DispatchEnv& env, wire::Args_glTexStorageMem3DEXT& a) {
  return in_memory(
      env, a.memory, a.offset, storage_bytes(a.target, a.internalFormat, a.levels, a.width, a.height, a.depth),
      [&](GLuint memory) {
        glTexStorageMem3DEXT(a.target, a.levels, a.internalFormat, a.width, a.height, a.depth, memory, a.offset);
      });
}

wire::Status handle_glTexStorageMem2DMultisampleEXT(DispatchEnv& env, wire::Args_glTexStorageMem2DMultisampleEXT& a) {
  return in_memory(env, a.memory, a.offset, multisample_bytes(a.internalFormat, a.samples, a.width, a.height, 1),
                   [&](GLuint memory) {
                     glTexStorageMem2DMultisampleEXT(a.target, a.samples, a.internalFormat, a.width, a.height,
                                                     a.fixedSampleLocations, memory, a.offset);
                   });
}

wire::Status handle_glTexStorageMem3DMultisampleEXT(DispatchEnv& env, wire::Args_glTexStorageMem3DMultisampleEXT& a) {
  return in_memory(env, a.memory, a.offset,
                   multisample_bytes(a.internalFormat, a.samples, a.width, a.height, a.depth), [&](GLuint memory) {
                     glTexStorageMem3DMultisampleEXT(a.target, a.samples, a.internalFormat, a.width, a.height,
                                                     a.depth, a.fixedSampleLocations, memory, a.offset);
                   });
}

// A named texture's target is GL's to know: its levels are counted as the
// fewest texels a texture of that shape holds (a 1D array's rows as a 2D
// texture's, a 2D array's layers as a 3D texture's slices, which halve; a
// cube map as one face).
wire::Status handle_glTextureStorageMem1DEXT(DispatchEnv& env, wire::Args_glTextureStorageMem1DEXT& a) {
  return named_in_memory(env, ObjectType::kTexture, a.texture, a.memory, a.offset,
                         storage_bytes(GL_TEXTURE_1D, a.internalFormat, a.levels, a.width, 1, 1),
                         [&](GLuint texture, GLuint memory) {
                           glTextureStorageMem1DEXT(texture, a.levels, a.internalFormat, a.width, memory, a.offset);
                         });
}

wire::Status handle_glTextureStorageMem2DEXT(DispatchEnv& env, wire::Args_glTextureStorageMem2DEXT& a) {
  return named_in_memory(env, ObjectType::kTexture, a.texture, a.memory, a.offset,
                         storage_bytes(GL_TEXTURE_2D, a.internalFormat, a.levels, a.width, a.height, 1),
                         [&](GLuint texture, GLuint memory) {
                           glTextureStorageMem2DEXT(texture, a.levels, a.internalFormat, a.width, a.height, memory,
                                                    a.offset);
                         });
}

wire::Status handle_glTextureStorageMem3DEXT(DispatchEnv& env, wire::Args_glTextureStorageMem3DEXT& a) {
  return named_in_memory(env, ObjectType::kTexture, a.texture, a.memory, a.offset,
                         storage_bytes(GL_TEXTURE_3D, a.internalFormat, a.levels, a.width, a.height, a.depth),
                         [&](GLuint texture, GLuint memory) {
                           glTextureStorageMem3DEXT(texture, a.levels, a.internalFormat, a.width, a.height, a.depth,
                                                    memory, a.offset);
                         });
}

wire::Status handle_glTextureStorageMem2DMultisampleEXT(DispatchEnv& env,
                                                        wire::Args_glTextureStorageMem2DMultisampleEXT& a) {
  return named_in_memory(env, ObjectType::kTexture, a.texture, a.memory, a.offset,
                         multisample_bytes(a.internalFormat, a.samples, a.width, a.height, 1),
                         [&](GLuint texture, GLuint memory) {
                           glTextureStorageMem2DMultisampleEXT(texture, a.samples, a.internalFormat, a.width,
                                                               a.height, a.fixedSampleLocations, memory, a.offset);
                         });
}

wire::Status handle_glTextureStorageMem3DMultisampleEXT(DispatchEnv& env,
                                                        wire::Args_glTextureStorageMem3DMultisampleEXT& a) {
  return named_in_memory(env, ObjectType::kTexture, a.texture, a.memory, a.offset,
                         multisample_bytes(a.internalFormat, a.samples, a.width, a.height, a.depth),
                         [&](GLuint texture, GLuint memory) {
                           glTextureStorageMem3DMultisampleEXT(texture, a.samples, a.internalFormat, a.width,
                                                               a.height, a.depth, a.fixedSampleLocations, memory,
                                                               a.offset);
                         });
}

}  // namespace host
