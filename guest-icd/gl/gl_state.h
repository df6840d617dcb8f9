// Guest-side GL state of one context: what the guest answers and tracks
// without asking the host (names, bindings, client arrays, pixel store,
// mappings, cached queries).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gl/legacy_arrays.h"
#include "gl/program_reflections.h"
#include "gl/texture_targets.h"
#include "wire/gl_types.h"
#include "wire/object_type.h"
#include "wire/sizes.h"

namespace icd {

using wire::size::vertex_type_bytes;  // the bytes of one component of a vertex array

// Name allocation for a share group. GL lets programs and shaders share one
// namespace, so they draw from one counter.
class GuestNames {
 public:
  void allocate(wire::ObjectType type, size_t count, GLuint* out);
  GLuint allocate_one(wire::ObjectType type);
  // Whether `name` was given out for a shader (and not a program): GL
  // reads a shader source only for such a name.
  bool shader_name(GLuint name) const;
  // Sync handles are the guest's: it knows which are live, so calls that
  // name another get GL's GL_INVALID_VALUE here (the host would refuse them).
  uint64_t allocate_sync();
  bool sync_live(uint64_t handle) const;
  bool delete_sync(uint64_t handle);  // false when it was not live
  TextureTargets& texture_targets() { return texture_targets_; }

 private:
  std::array<GLuint, static_cast<size_t>(wire::ObjectType::kCount)> next_{};
  mutable std::mutex mu_;  // contexts of a share group may be on several threads
  std::unordered_set<GLuint> shader_names_;
  uint64_t next_sync_ = 0;
  std::unordered_set<uint64_t> live_syncs_;
  TextureTargets texture_targets_;
};

// Which glVertexAttrib*Pointer set an attribute: how GL reads its components.
enum class AttribFormat : uint8_t { kFloat, kInteger, kLong };

// A vertex attribute of the default vertex array whose data lives in client memory.
struct ClientArray {
  bool enabled = false;
  bool client = false;  // pointer is client memory (no array buffer at set time)
  AttribFormat format = AttribFormat::kFloat;
  GLint size = 4;
  GLenum type = 0x1406;  // GL_FLOAT
  GLboolean normalized = 0;
  GLsizei stride = 0;
  const void* pointer = nullptr;
  GLuint divisor = 0;  // glVertexAttribDivisor: elements advance per instance

  size_t element_bytes() const;
  size_t stride_bytes() const;
};

// The guest's copy of a mapped range, placed as GL places a mapping: the
// pointer minus the range's offset is a multiple of
// GL_MIN_MAP_BUFFER_ALIGNMENT (64 bytes, the value drivers report).
class MappedShadow {
 public:
  static constexpr size_t kAlignment = 64;
  // `size` zero bytes for a range starting at `offset` in its buffer.
  void assign(size_t size, int64_t offset) {
    storage_.assign(size + kAlignment, std::byte{0});
    const auto base = reinterpret_cast<uintptr_t>(storage_.data());
    const auto wanted = static_cast<uintptr_t>(offset) % kAlignment;
    pad_ = (wanted + kAlignment - base % kAlignment) % kAlignment;
    size_ = size;
  }
  std::byte* data() { return storage_.data() + pad_; }
  const std::byte* data() const { return storage_.data() + pad_; }
  size_t size() const { return size_; }

 private:
  std::vector<std::byte> storage_;
  size_t pad_ = 0, size_ = 0;
};

struct Mapping {
  GLenum target = 0;   // mapped through a binding
  GLuint bound = 0;    // then the buffer bound there, where the guest tracks it
  GLuint buffer = 0;   // mapped by name (glMapNamedBuffer*); then target is 0
  int64_t offset = 0;
  int64_t length = 0;
  GLbitfield access = 0;
  MappedShadow shadow;
  // Persistent mappings only: what the host's buffer holds of the range as
  // far as the guest knows (gl/persistent_mappings.h).
  std::vector<std::byte> host_copy;

  bool persistent() const { return access & 0x0040; }  // GL_MAP_PERSISTENT_BIT
};

class GlState {
 public:
  GlState(bool gles, int major, int minor);

  bool gles() const { return gles_; }
  // Desktop GL and OpenGL ES 1.x have fixed-function client arrays.
  bool fixed_function() const { return !gles_ || major_ < 2; }
  int major() const { return major_; }
  int minor() const { return minor_; }

  // Contexts of one share group allocate names from one GuestNames, and
  // know its programs' links from one ProgramReflections.
  void share_names_with(const GlState& other) {
    names_ = other.names_;
    programs_.share_with(other.programs_);
  }
  GuestNames& names() { return *names_; }
  // The targets of the share group's textures (texture_targets.h); null in
  // OpenGL ES, which has no named texture commands to check, so that its
  // binds pay nothing for them.
  TextureTargets* texture_targets() { return gles_ ? nullptr : &names_->texture_targets(); }
  ProgramReflections& programs() { return programs_; }

  const wire::size::PixelStore& unpack() const { return unpack_; }
  const wire::size::PixelStore& pack() const { return pack_; }
  // Pixel-store values GL accepts, and glPush/PopClientAttrib of them.
  void pixel_store(GLenum pname, GLint value);
  void push_client_attrib(GLbitfield mask);
  void pop_client_attrib();
  bool unpack_buffer_bound() const { return unpack_buffer_ != 0; }
  bool pack_buffer_bound() const { return pack_buffer_ != 0; }

  // Buffer bindings the guest needs to decide how pointers travel.
  void bind_buffer(GLenum target, GLuint buffer);
  GLuint bound_buffer(GLenum target) const;
  void forget_buffer(GLuint buffer);
  void set_buffer_size(GLuint buffer, int64_t size) { buffer_sizes_[buffer] = size; }
  // The size this context gave the buffer's storage, -1 when it did not.
  int64_t buffer_size(GLuint buffer) const;

  void bind_vertex_array(GLuint vao) { vertex_array_ = vao; }
  bool default_vertex_array() const { return vertex_array_ == 0; }
  GLuint vertex_array() const { return vertex_array_; }
  ClientArray& attrib(GLuint index);
  const std::vector<ClientArray>& attribs() const { return attribs_; }
  bool has_client_arrays() const;

  // Mappings made through a binding, by target and the buffer bound there:
  // another buffer bound to the target may be mapped as well.
  using BindingKey = std::pair<GLenum, GLuint>;
  std::map<BindingKey, Mapping>& mappings() { return mappings_; }
  BindingKey binding_key(GLenum target) const { return {target, bound_buffer(target)}; }
  std::map<GLuint, Mapping>& named_mappings() { return named_mappings_; }
  // Persistent mappings by buffer name, however they were made.
  std::map<GLuint, Mapping>& persistent_mappings() { return persistent_mappings_; }

  // Fixed-function client arrays (desktop compatibility contexts).
  LegacyArrays& legacy_arrays() { return legacy_arrays_; }

  // Primitive restart: an index equal to the restart index names no vertex,
  // so the client arrays a draw sends need not reach it.
  struct PrimitiveRestart {
    bool enabled = false;      // GL_PRIMITIVE_RESTART (or the NV form)
    bool fixed_index = false;  // GL_PRIMITIVE_RESTART_FIXED_INDEX: the type's largest value
    uint32_t index = 0;
  };
  PrimitiveRestart& primitive_restart() { return restart_; }
  const PrimitiveRestart& primitive_restart() const { return restart_; }

  // Per-context answers fetched once from the host.
  std::unordered_map<uint64_t, std::string>& string_cache() { return strings_; }
  // Keyed by pname | (value size << 32): glGetIntegerv and glGetFloatv differ.
  std::unordered_map<uint64_t, std::vector<std::byte>>& get_cache() { return gets_; }
  std::vector<std::string>& extensions() { return extensions_; }

  // The program's selection and feedback buffers: GL's results reach them
  // when glRenderMode leaves the mode (render_mode_entry.cpp).
  struct KeptBuffer {
    void* data = nullptr;
    size_t bytes = 0;
  };
  KeptBuffer select_buffer, feedback_buffer;

  // Debug output (gl/debug_output.h).
  // An error the guest raised itself (a map GL would refuse), which the
  // next glGetError reports ahead of the host's.
  void raise_error(GLenum error) {
    if (!local_error_) local_error_ = error;
  }
  GLenum take_error() { return std::exchange(local_error_, 0); }

  // Between a glBegin GL ran and its glEnd GL refuses all but vertex
  // attributes and list calls; what the guest answers or keeps itself
  // raises that error here (true: refused). A glBegin compiled into a
  // list with GL_COMPILE opens nothing; calling a list opens or closes
  // what its last compiled glBegin or glEnd does (lists called by name from
  // glCallLists are not followed).
  struct Primitive {
    bool open = false;           // a glBegin GL ran, no glEnd yet
    bool in_list = false;         // a glNewList GL took, no glEndList yet
    bool compiling_only = false;  // that list's mode is GL_COMPILE
    GLuint list = 0;              // that list's name
    std::optional<bool> list_opens;  // its last glBegin (true) or glEnd (false) so far
    std::unordered_map<GLuint, bool> lists_opening;  // the same, of each list compiled
  };
  Primitive& primitive() { return primitive_; }
  // A negative count or size GL refuses with GL_INVALID_VALUE, raised here
  // where nothing travels for it (true: refused).
  bool refused_negative(int64_t n) {
    if (n < 0) raise_error(0x0501);
    return n < 0;
  }
  // A named texture command whose target is not its texture's, which GL
  // refuses with GL_INVALID_OPERATION before it reads any pixels. Compiled
  // into a list, GL keeps the command and its pixels and refuses it when
  // the list runs.
  bool refused_texture_target(GLuint texture, GLenum target) {
    const bool refused = !primitive_.in_list && !gles_ && names_->texture_targets().mismatched(texture, target);
    if (refused) raise_error(0x0502);
    return refused;
  }
  bool refused_inside_begin() {
    if (primitive_.open) raise_error(0x0502);  // GL_INVALID_OPERATION
    return primitive_.open;
  }

  void* debug_callback = nullptr;
  const void* debug_user_param = nullptr;
  bool debug_synchronous = false;  // GL_DEBUG_OUTPUT_SYNCHRONOUS
  bool delivering_debug = false;   // the program's callback is running

 private:
  bool gles_;
  int major_, minor_;
  std::shared_ptr<GuestNames> names_;
  ProgramReflections programs_;
  wire::size::PixelStore unpack_, pack_;
  struct SavedClientAttrib {
    bool pixel_store;  // GL_CLIENT_PIXEL_STORE_BIT was set
    wire::size::PixelStore unpack, pack;
  };
  std::vector<SavedClientAttrib> client_attrib_stack_;
  GLuint array_buffer_ = 0, element_buffer_ = 0, pack_buffer_ = 0, unpack_buffer_ = 0;
  GLuint indirect_buffer_ = 0;
  GLuint query_buffer_ = 0;  // GL_QUERY_BUFFER: query results go there
  std::map<GLenum, GLuint> other_buffers_;  // every other target's binding
  GLuint vertex_array_ = 0;
  std::unordered_map<GLuint, GLuint> vao_element_buffers_;
  std::unordered_map<GLuint, int64_t> buffer_sizes_;
  std::vector<ClientArray> attribs_;
  LegacyArrays legacy_arrays_;
  PrimitiveRestart restart_;
  std::map<BindingKey, Mapping> mappings_;
  std::map<GLuint, Mapping> named_mappings_;
  std::map<GLuint, Mapping> persistent_mappings_;
  std::unordered_map<uint64_t, std::string> strings_;
  std::unordered_map<uint64_t, std::vector<std::byte>> gets_;
  std::vector<std::string> extensions_;  // what the guest offers, fetched once
  GLenum local_error_ = 0;
  Primitive primitive_;
};

}  // namespace icd
