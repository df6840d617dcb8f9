// Memory of objects the guest deleted: GL frees a deleted buffer, texture or
// renderbuffer only once nothing refers to it, so the guest stays charged
// for it until a look at every context of its share group finds nothing
// that does (gl/memory_ledger.h).
#include <algorithm>
#include <set>

#include "gl/gl_handler.h"

namespace host {
namespace {

// How often deletions alone make the host look: a look costs a few thousand
// GL queries per context, more with many vertex arrays and framebuffers, so
// the wait is also at least kLookShare times what the last look took.
constexpr auto kReclaimPeriod = std::chrono::milliseconds(200);
constexpr int kLookShare = 50;

}  // namespace

void GlHandler::reclaim_memory(bool changed_only) {
  const auto start = std::chrono::steady_clock::now();
  std::set<const ShareGroup*> seen;
  for (auto& [id, ctx] : contexts_) {
    ShareGroup& group = *ctx->state->share_group();
    if (!seen.insert(&group).second || !has_retired(group, changed_only)) continue;
    ObjectReferences refs;
    bool complete = true;
    for (auto& [other_id, other] : contexts_) {
      if (other->state->share_group().get() != &group) continue;
      const bool current = other.get() == current_ && bound_;
      if (!current && !bind_alone(other->egl, other->api)) complete = false;
      if (!current) bound_ = false;
      if (complete) complete = other->state->add_references(refs);
    }
    add_image_sources(group, refs);
    if (complete) reclaim_retired(group, refs);
  }
  ensure_bound();
  last_reclaim_ = std::chrono::steady_clock::now();
  reclaim_wait_ = std::max<std::chrono::steady_clock::duration>(kReclaimPeriod,
                                                                 (last_reclaim_ - start) * kLookShare);
}

void GlHandler::reclaim_after_batch() {
  if (std::chrono::steady_clock::now() - last_reclaim_ < reclaim_wait_) return;
  for (auto& [id, ctx] : contexts_) {
    if (has_retired(*ctx->state->share_group(), true)) {
      reclaim_memory(true);
      return;
    }
  }
}

}  // namespace host
