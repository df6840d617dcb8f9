// The contract between the GL handler (contexts, surfaces, images) and the
// GL command path (generated decoder + dispatch, hand-written handlers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <unordered_set>

#include "host/memory_exports.h"
#include "host/resource_account.h"
#include "wire/context_strings.h"
#include "wire/object_type.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/writer.h"

namespace host {

class ShareGroup;  // guest -> host name maps shared between contexts
class ProgramBinaries;  // the session's program cache (gl/program_binaries.h)

// Host objects that GL objects or bindings still refer to.
class ObjectReferences {
 public:
  void add(wire::ObjectType kind, uint32_t name) { keys_.insert(key(kind, name)); }
  bool has(wire::ObjectType kind, uint32_t name) const { return keys_.count(key(kind, name)) > 0; }

 private:
  static uint64_t key(wire::ObjectType kind, uint32_t name) {
    return uint64_t{static_cast<uint8_t>(kind)} << 32 | name;
  }
  std::unordered_set<uint64_t> keys_;
};

// Host-side state of one guest context; lives as long as the host context.
class GlContextState {
 public:
  GlContextState(std::shared_ptr<ShareGroup> share, ResourceAccount& account, bool gles);
  ~GlContextState();
  GlContextState(const GlContextState&) = delete;
  GlContextState& operator=(const GlContextState&) = delete;

  // Frees every host object this context's names refer to that no other
  // context shares. Must be called with the host context current.
  void release_objects();

  // Adds what this context refers to (its host context must be current);
  // false when that could not all be read.
  bool add_references(ObjectReferences& refs);

  // The host name of a guest texture or renderbuffer, and the bytes charged
  // for it, for an EGL image made of it; false when the name names none.
  bool image_source(wire::ObjectType kind, uint32_t guest, uint32_t* host, uint64_t* bytes);

  // How many of a glUniform*v or glProgramUniform*v call's `count` values GL
  // reads at `location` of the guest's `program` (0: the one in use), or -1
  // when GL refuses the call, its error then waiting for the guest's
  // glGetError (gl/uniform_reach.cpp). The host context must be current.
  int32_t uniform_reach(uint32_t program, int32_t location, int32_t count);

  // What glGetString and glGetStringi(GL_EXTENSIONS) answer on this context
  // (gl/context_strings.cpp); the guest's GL error state is left as it was.
  // The host context must be current.
  wire::ContextStrings context_strings();

  static std::shared_ptr<ShareGroup> new_share_group();
  const std::shared_ptr<ShareGroup>& share_group() const { return share_; }

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::shared_ptr<ShareGroup> share_;
  std::unique_ptr<Impl> impl_;
};

// Deleted objects whose storage GL may still keep (gl/memory_ledger.h):
// whether `group` has any, or (`changed_only`) whether objects were retired
// or something that referred to them deleted since its last reclaim.
bool has_retired(const ShareGroup& group, bool changed_only);
// Frees those not in `refs`, which holds what every context of `group`
// refers to; a context of the group must be current.
void reclaim_retired(ShareGroup& group, const ObjectReferences& refs);

// An EGL image a guest made (gl/guest_images.cpp), by its guest id.
struct GuestImage {
  void* egl = nullptr;  // the host's EGLImage
  uint64_t bytes = 0;   // charged to the guest while it lives
  // Its source, whose storage it keeps alive: referenced for the ledger.
  const ShareGroup* group = nullptr;
  wire::ObjectType kind = wire::ObjectType::kTexture;
  uint32_t source = 0;  // host name
};
using GuestImages = std::map<uint32_t, GuestImage>;

// Sends the guest, ahead of the batch's reply, what a link left in its
// program `program` (the guest's name): wire/program_reflection.h's bytes.
using LinkTeller = std::function<void(uint32_t program, std::span<const std::byte> reflection)>;

struct DispatchEnv {
  GlContextState& state;
  wire::Writer& reply;  // reply payload, for commands that hand data back
  const GuestImages* images;  // the session's, for glEGLImageTarget*OES
  ProgramBinaries* programs = nullptr;  // null: compiles and links go straight to GL
  const LinkTeller* tell_linked = nullptr;  // null: the guest asks after links instead
  const TakeExport* take_export = nullptr;  // null: no Vulkan memory to import
};

// Decodes, validates and executes one GL command on the current host context.
// An error means protocol abuse: the caller marks the guest context lost.
wire::Status dispatch_gl(DispatchEnv& env, uint32_t opcode, wire::Reader& payload);

// Whether the command just run wrote the default draw framebuffer in a way
// that running it again into another buffer repeats (annotations.toml
// [facts] repeatable_draw). Not while a display list is compiled (it would
// be compiled twice), between glBegin and glEnd, or in selection and
// feedback modes (GL would report its hits twice).
bool draws_again(GlContextState& state, uint32_t opcode);
// Runs such a command again. Transform feedback that captures is paused
// meanwhile, so that the primitives are captured once.
wire::Status dispatch_gl_again(DispatchEnv& env, uint32_t opcode, wire::Reader& payload);

// "glDrawArrays" for an opcode, or null when the opcode is not a GL command.
const char* gl_command_name(uint32_t opcode);

}  // namespace host
