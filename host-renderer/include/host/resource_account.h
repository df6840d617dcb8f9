// What a guest may hold on the host and what it holds: one account per
// guest, charged by every API handler of its session (GL and Vulkan
// objects share it), so one limit bounds them together.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace host {

// Per-guest limits; exceeding one gives the guest GL_OUT_OF_MEMORY.
struct GuestLimits {
  size_t max_object_bytes = 512u << 20;   // one buffer or texture upload
  size_t max_total_bytes = 2048u << 20;   // all buffers and textures of a guest
  size_t max_objects = 1u << 20;          // names of all kinds
  uint64_t max_draw_vertices = 1u << 28;  // vertices x instances of one draw
  uint64_t max_dispatch_groups = 1u << 24;  // workgroups of one Vulkan dispatch
  uint32_t submission_timeout_s = 20;     // how long Vulkan work may run; 0: no limit
  // Compile GLSL ES mediump as highp (execution may use more precision,
  // GLSL ES 3.20, 4.7.3): drivers that emulate 16-bit floats (llvmpipe) run
  // it several times faster, but precision mismatches between declarations
  // that must fail to compile or link no longer do. Off: shaders as written.
  bool promote_shader_precision = false;
};

// What one guest has allocated, shared by all its contexts. Every byte the
// host allocates for a guest is charged and given back here, and nowhere
// else, so the limit check is the same for all of them.
struct ResourceAccount {
  GuestLimits limits;
  size_t total_bytes = 0;
  size_t objects = 0;
  // Frees the storage of deleted objects that nothing refers to any more
  // (the session asks every API handler); called when an allocation would
  // not fit otherwise.
  std::function<void()> reclaim;

  // What the guest may still allocate under its limit.
  uint64_t room() const {
    const uint64_t limit = limits.max_total_bytes;
    return limit - std::min<uint64_t>(total_bytes, limit);
  }
  bool fits(uint64_t more) const { return more <= room(); }
  // Charges `bytes` if they fit; never reclaims, for callers in the middle
  // of changing what reclaim() walks (the memory ledger).
  bool charge_if_fits(uint64_t bytes) {
    if (!fits(bytes)) return false;
    total_bytes += bytes;
    return true;
  }
  // Charges `bytes` if they fit, reclaiming deleted objects' storage once
  // when they do not fit at first.
  bool try_charge(uint64_t bytes) {
    if (!fits(bytes) && reclaim) reclaim();
    return charge_if_fits(bytes);
  }
  // Charges what has been allocated already, after a check against a
  // worst case (surfaces).
  void charge_allocated(uint64_t bytes) { total_bytes += bytes; }
  void release(uint64_t bytes) { total_bytes -= std::min<uint64_t>(total_bytes, bytes); }
};

}  // namespace host
