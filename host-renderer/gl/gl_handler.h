// A guest's OpenGL and OpenGL ES: its EGL contexts and surfaces, the EGL
// images made of its objects, the frames read back from its surfaces, and
// the generated dispatch each GL command runs through on the context the
// guest made current. The first error loses the current context (the
// session says so); the guest's other contexts, its Vulkan and every other
// guest carry on.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "host/api_handler.h"
#include "host/egl_display.h"
#include "host/frame_reader.h"
#include "host/gl_dispatch.h"
#include "host/guest_context.h"
#include "host/resource_account.h"
#include "host/surface.h"
#include "wire/control.h"

namespace host {

class GlHandler final : public ApiHandler {
 public:
  // The session's (SessionLimits), which gives the defaults.
  struct Limits {
    uint32_t max_contexts;
    uint32_t max_surfaces;
    uint32_t frame_ring;  // pixel buffer objects per surface
  };
  // What goes out through the session: finished frames of a surface (to
  // the guest, and to viewers for a window's), the end of a surface, and
  // what a link left in a program (kProgramReflection).
  struct ToGuest {
    FramePlacement frame;
    std::function<void(uint32_t surface_id)> surface_gone;
    std::function<void(const wire::ProgramLinked&, std::span<const std::byte> reflection)> program_linked;
  };

  // Objects are charged to `account`, the guest's one account; log lines
  // name the session `session_id`.
  GlHandler(const EglDisplay& display, const Limits& limits, ResourceAccount& account, ToGuest to_guest,
            uint32_t session_id);
  // Frees every context, surface and image of the guest (gl_teardown.cpp).
  ~GlHandler() override;
  GlHandler(const GlHandler&) = delete;
  GlHandler& operator=(const GlHandler&) = delete;

  // ApiHandler. A control command's error, or a batch's that cannot be
  // framed, also loses the current context: the guest's EGL and GLX front
  // ends are what send those.
  wire::Status run(const ApiCommand& cmd) override;
  void end_batch() override;
  void reclaim() override;
  std::optional<uint32_t> lose() override;
  const char* command_name(uint32_t opcode) const override;

  // Conduit's commands that EGL serves (contexts, surfaces, swaps, images,
  // uniform reach); any other is refused as unknown.
  wire::Status run_control(const ApiCommand& cmd);
  // The handshake's features that depend on the host's EGL and GL.
  uint32_t features() const;
  // The session's program cache, for every command from now on (null: none).
  void set_program_binaries(ProgramBinaries* programs) { programs_ = programs; }
  // Where GL_EXT_memory_object_fd finds the Vulkan exports it imports.
  void set_memory_exports(TakeExport take) { take_export_ = std::move(take); }
  // Whether the guest agreed to kFeatureProgramReflection: each link is
  // then followed by what it left in the program.
  void tell_links(bool on);

  // Frames being read back, and handing over those whose reads are done
  // after waiting for those `wait` says.
  size_t frames_pending() const { return frames_ ? frames_->pending() : 0; }
  FrameTimes frame_times() const {
    FrameTimes t = frames_ ? frames_->times() : FrameTimes{};
    t.rebind = rebinds_;
    return t;
  }
  void collect_frames(FrameReader::Wait wait);

  // A guest surface, or null.
  const Surface* surface(uint32_t surface_id) const;
  size_t context_count() const { return contexts_.size(); }
  size_t surface_count() const { return surfaces_.size(); }

 private:
  bool ensure_bound();

  // gl_contexts.cpp
  wire::Status create_context(wire::Reader& r, wire::Writer& reply);
  wire::Status destroy_context(wire::Reader& r);
  wire::Status make_current(wire::Reader& r);
  wire::Status bind_tex_image(wire::Reader& r);
  wire::Status uniform_reach(wire::Reader& r, wire::Writer& reply);
  wire::Status context_strings(wire::Writer& reply);

  // gl_surfaces.cpp
  wire::Status create_surface(wire::Reader& r);
  wire::Status destroy_surface(wire::Reader& r);
  wire::Status resize_surface(wire::Reader& r);
  wire::Status swap_buffers(wire::Reader& r);

  // guest_images.cpp: EGL images of GL textures and renderbuffers
  bool offers_gl_images() const;
  wire::Status create_image(wire::Reader& r, wire::Writer& reply);
  wire::Status destroy_image(wire::Reader& r);
  void destroy_images();
  void add_image_sources(const ShareGroup& group, ObjectReferences& refs) const;

  // front_buffers.cpp: front buffers of double-buffered surfaces
  EGLSurface buffer_of(uint32_t surface_id, bool front) const;
  wire::Status make_front(uint32_t surface_id);
  wire::Status follow_default_buffers();
  wire::Status draw_again_into_front(const ApiCommand& cmd);
  void select_initial_buffers(GuestContext& ctx);
  bool draws_shown_buffer() const;
  wire::Status present_front();
  wire::Status start_frame_reader();
  // The draw and read buffer modes of the current desktop GL context's
  // default framebuffer, and giving them back to that framebuffer once the
  // surfaces behind it were made again (a resize).
  struct DefaultBufferModes {
    int32_t draw = 0, read = 0;  // 0: none to give back
  };
  DefaultBufferModes default_buffer_modes();
  void restore_default_buffer_modes(const DefaultBufferModes& modes);

  // gl_teardown.cpp: freeing host objects
  void destroy(GuestContext& ctx);
  bool bind_alone(EGLContext ctx, wire::Api api);

  // memory_reclaim.cpp: storage of deleted objects
  void reclaim_memory(bool changed_only);
  void reclaim_after_batch();

  const EglDisplay& display_;  // outlives the handler: every EGL object below is the display's
  const Limits limits_;
  ResourceAccount& account_;
  const ToGuest to_guest_;
  const uint32_t session_id_;

  // Contexts go before surfaces, the frame reader after both (see ~GlHandler()).
  std::map<uint32_t, std::unique_ptr<GuestContext>> contexts_;
  std::map<uint32_t, std::unique_ptr<Surface>> surfaces_;
  std::unique_ptr<FrameReader> frames_;
  std::chrono::nanoseconds rebinds_{0};  // making the guest's context current again
  GuestImages images_;
  ProgramBinaries* programs_ = nullptr;
  LinkTeller tell_linked_;  // empty: links are not told
  TakeExport take_export_;  // empty: no Vulkan memory to import
  std::unique_ptr<Surface> scratch_;  // 1x1, to bind contexts without EGL_KHR_surfaceless_context

  GuestContext* current_ = nullptr;
  uint32_t draw_id_ = 0, read_id_ = 0;
  bool bound_ = true;  // whether the EGL binding is the guest's current one
  bool no_context_lost_ = false;  // a protocol error while no context was current
  std::map<uint32_t, uint32_t> last_frame_;  // per surface: the frame id of its last swap
  bool draws_shown_ = false;  // draws_shown_buffer() of the current binding
  bool front_drawn_ = false;  // GL ran while drawing into a shown buffer, since the last flush
  std::chrono::steady_clock::time_point last_reclaim_{};
  std::chrono::steady_clock::duration reclaim_wait_{};  // before deletions make the next look
};

}  // namespace host
