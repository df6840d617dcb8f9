// Host-side state of one guest GL context: its name maps, scratch buffers
// for client data and what the host context supports. (Pixel-store state is
// GL's own: pixel_transfer.h asks GL for it.)
#pragma once

#include <epoxy/gl.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "gl/allocation.h"
#include "gl/kept_buffer.h"
#include "gl/name_map.h"
#include "host/gl_dispatch.h"
#include "wire/gl_opcodes.h"
#include "wire/result.h"
#include "wire/sizes.h"

namespace host {

// The host name an unknown guest name stands for: GL hands out names from 1
// upwards and never reaches it, so GL reports the name as unknown.
constexpr GLuint kNoSuchObject = 0xFFFFFFFFu;

enum class NameUse {
  kExisting,     // names a live object of this kind; unknown: kNoSuchObject
  kCreateOnUse,  // GL creates unknown names on first bind (buffers, textures...)
  kLenient,      // unknown names become 0 (glIs* answer false)
  kDelete,       // about to be deleted; unknown names are ignored like GL does
};

// What one fence sync costs the guest's memory, from its creation to its
// deletion: the least any driver allocation costs (memory_ledger.h), so a
// guest cannot pile up fences for free.
constexpr uint64_t kSyncBytes = kChargeUnit;

// A reply up to this size is not charged (charge_reply), so that a guest at
// its memory limit can still ask what GL holds (glGetError, glGet*, small
// read-backs): the host keeps no more than this for one command.
constexpr uint64_t kUnchargedReplyBytes = 64u << 10;

struct GlContextState::Impl {
  Impl(std::shared_ptr<ShareGroup> share, ResourceAccount& account, bool gles);

  NameMap& names(ObjectType t) {
    return wire::is_shared(t) ? share->names(t) : local.names(t);
  }
  wire::Status translate(ObjectType t, GLuint guest, NameUse use, GLuint* host);
  // A name whose kind a target or label identifier gives (glCopyImageSubData,
  // glObjectLabel): translated as an existing object of that kind; for a
  // value GL refuses, no object (GL raises its own error).
  wire::Status translate_named_by(GLenum kind, GLuint guest, GLuint* host);
  void forget(ObjectType t, GLuint guest);
  // After a single-name delete: forgets the name, unless GL keeps the
  // object (programs and shaders flagged for deletion).
  void forget_deleted(ObjectType t, GLuint guest);
  void forget_reused(GLuint host);
  // Maps freshly generated host names to the names the guest chose.
  wire::Status adopt(ObjectType t, const GLuint* guest, const GLuint* host, size_t count);
  // Whether an allocation fits the guest's per-object limit and, charged to
  // the object it fills, the guest's total; if not, GL_OUT_OF_MEMORY waits
  // for the guest's next glGetError and the command is not executed.
  bool admit_allocation(const Allocation& a);
  // Room for what a command sends back (read-back pixels, reply arrays,
  // mapped bytes), whose size the guest chooses: charged to the guest until
  // the command ends, so that no reply is larger than what the guest may
  // still allocate. False, with GL_OUT_OF_MEMORY waiting for the guest's
  // next glGetError, when it does not fit.
  bool charge_reply(uint64_t bytes);
  // Gives back what charge_reply() charged; after every command.
  void release_reply();
  // GL may give out the name of a retired object (memory_ledger.h) again:
  // such a name is held unused and `make_one` makes another in its place.
  void avoid_retired_names(ObjectType t, GLuint* hosts, size_t count,
                           const std::function<void(GLuint*)>& make_one);
  // Whether the current host context has a command (checked once per context).
  bool supports(const wire::GlCommandInfo& info);
  // Whether the context has fixed-function client arrays: desktop GL before
  // 3.2 or a compatibility profile, and OpenGL ES 1.x.
  bool has_fixed_function_arrays();
  // The host context's version, major*10+minor.
  int version();
  // OpenGL ES 1.x, an API of its own (no generic attributes or shaders).
  bool gles1() { return gles && version() < 20; }
  // Whether a desktop GL context runs on Mesa's draw module (llvmpipe,
  // softpipe), whose bugs driver_workarounds.h avoids.
  bool draw_module_driver();

  std::shared_ptr<ShareGroup> share;
  ShareGroup local;  // per-context kinds (VAOs, FBOs, queries...), default textures
  ResourceAccount& account;
  bool gles;
  std::unordered_map<uint64_t, GLsync> syncs;  // guest handle -> host sync
  GLenum refused_error = GL_NO_ERROR;          // reported before GL's own errors
  uint64_t reply_bytes = 0;                    // charged by charge_reply()
  // Selection and feedback buffers GL writes until glRenderMode.
  KeptBuffers kept;
  // Host-only buffers holding client-side vertex and index data.
  std::vector<GLuint> scratch_arrays;
  GLuint scratch_elements = 0;
  // Vertex array checks (array_reads.h): between glBegin and glEnd, and the
  // last vertex the arrays held at glBegin; the last vertex they hold as of
  // the share group's array_epoch.
  bool in_begin = false;
  int64_t begin_last_vertex = 0;
  int64_t begin_restart_index = -1;  // GL_PRIMITIVE_RESTART_INDEX at glBegin while enabled, else -1
  int64_t held_vertex = 0;
  int64_t held_restart_index = -1;  // as of held_vertex_epoch
  uint64_t held_vertex_epoch = ~uint64_t{0};
  // The display list this context compiles (0: none), what its commands
  // were charged so far, and whether one did not fit (display_lists.h).
  GLuint compiling_list = 0;
  uint64_t compiled_bytes = 0;
  bool list_full = false;
  // A glBegin compiled into that list and no glEnd yet. GL compiles every
  // command in between, errors included, so nothing else closes it.
  bool list_primitive_open = false;
  // GL_LINE_SMOOTH is off for the draw running now (driver_workarounds.h).
  bool line_smooth_suspended = false;
  // Whether the surface the context draws into is a double-buffered window:
  // the host's surfaces are single-buffered pbuffers, so GL_DOUBLEBUFFER of
  // the default framebuffer is answered from this (set at make-current).
  bool draws_double_buffered = false;

 private:
  void probe_support();
  bool probed_ = false;
  uint64_t allocation_bytes(const Allocation& a, const MemoryLedger& ledger, GLuint object) const;
  int version_ = 0;           // major*10+minor of the host context
  bool fixed_function_ = false;
  bool draw_module_ = false;
  std::array<uint64_t, wire::kGlExtensionWords> extensions_{};  // bits of wire::gl_extension_names()
  // Commands offered only through an extension, by whether the driver has
  // an entry point for them (libepoxy aborts on one it cannot resolve).
  std::unordered_map<const wire::GlCommandInfo*, bool> resolvable_;
};

}  // namespace host
