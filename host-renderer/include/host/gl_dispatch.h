// The contract between the session (contexts, surfaces, transport) and the
// GL command path (generated decoder + dispatch, hand-written handlers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "wire/reader.h"
#include "wire/result.h"
#include "wire/writer.h"

namespace host {

// Per-guest limits; exceeding one gives the guest GL_OUT_OF_MEMORY.
struct GuestLimits {
  size_t max_object_bytes = 512u << 20;   // one buffer or texture upload
  size_t max_total_bytes = 2048u << 20;   // all buffers and textures of a guest
  size_t max_objects = 1u << 20;          // names of all kinds
  // Compile GLSL ES mediump as highp (allowed by GLSL ES 3.20, 4.7.3):
  // drivers that emulate 16-bit floats (llvmpipe) run it several times faster.
  bool promote_shader_precision = true;
};

// What one guest has allocated, shared by all its contexts.
struct ResourceAccount {
  GuestLimits limits;
  size_t total_bytes = 0;
  size_t objects = 0;
};

class ShareGroup;  // guest -> host name maps shared between contexts

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

  static std::shared_ptr<ShareGroup> new_share_group();
  const std::shared_ptr<ShareGroup>& share_group() const { return share_; }

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::shared_ptr<ShareGroup> share_;
  std::unique_ptr<Impl> impl_;
};

struct DispatchEnv {
  GlContextState& state;
  wire::Writer& reply;  // reply payload, for commands that hand data back
};

// Decodes, validates and executes one GL command on the current host context.
// An error means protocol abuse: the caller marks the guest context lost.
wire::Status dispatch_gl(DispatchEnv& env, uint32_t opcode, wire::Reader& payload);

// "glDrawArrays" for an opcode, or null when the opcode is not a GL command.
const char* gl_command_name(uint32_t opcode);

}  // namespace host
