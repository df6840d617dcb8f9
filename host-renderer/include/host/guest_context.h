// One guest GL/GLES context on the host: its EGL context and GL state.
#pragma once

#include <epoxy/egl.h>

#include <cstdint>
#include <memory>

#include "host/gl_dispatch.h"
#include "wire/control.h"

namespace host {

// What one guest context costs the guest's memory, charged from its creation
// to its destruction. A driver context holds the whole GL state (Mesa's
// context structure with its per-unit texture, attribute and matrix stacks
// is well over 100 KiB) plus command and upload buffers of its own; 256 KiB
// is below what any driver context really costs, so the charge never counts
// a context twice, and a guest's limit bounds how many it can make.
constexpr uint64_t kContextBytes = 256u << 10;

struct GuestContext {
  uint32_t id = 0;
  wire::Api api = wire::Api::kGles;
  EGLContext egl = EGL_NO_CONTEXT;
  // Destroyed before `egl`, with `egl` current.
  std::unique_ptr<GlContextState> state;
  // Sticky after the first protocol error: its GL commands are skipped.
  bool lost = false;
  // Whether its default framebuffer draws into, and reads from, the front
  // buffer of a double-buffered surface (glDrawBuffer/glReadBuffer).
  bool draw_front = false;
  bool read_front = false;
  // Whether it draws into both (GL_FRONT_AND_BACK, GL_LEFT): into the back,
  // and each command that draws runs again into the front.
  bool draw_both = false;
  bool bound_before = false;  // made current on a surface at least once
};

}  // namespace host
