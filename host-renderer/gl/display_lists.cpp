#include "gl/display_lists.h"

#include <algorithm>
#include <string>

#include "gl/context_impl.h"
#include "gl/opcode_names.h"
#include "wire/gl_opcodes.h"

namespace host {

bool DisplayListCharges::compile(uint64_t bytes) {
  // Deleted objects GL has freed since may make room.
  if (account_ == nullptr || !account_->try_charge(bytes)) return false;
  charged_ += bytes;
  return true;
}

void DisplayListCharges::end(GLuint list, uint64_t bytes) {
  uint64_t& held = lists_[list];
  give_back(held);
  held = bytes;
}

void DisplayListCharges::erase(GLuint first, GLsizei range) {
  if (range <= 0) return;  // GL_INVALID_VALUE, or nothing
  const uint64_t last = uint64_t{first} + static_cast<uint64_t>(range) - 1;
  for (auto it = lists_.begin(); it != lists_.end();) {
    if (it->first < first || it->first > last) {
      ++it;
      continue;
    }
    give_back(it->second);
    it = lists_.erase(it);
  }
}

uint64_t DisplayListCharges::bytes_of(GLuint list) const {
  auto it = lists_.find(list);
  return it == lists_.end() ? 0 : it->second;
}

void DisplayListCharges::give_back(uint64_t bytes) {
  bytes = std::min(bytes, charged_);
  charged_ -= bytes;
  if (account_) account_->release(bytes);
}

namespace {

// Commands GL runs at once even while compiling a list (OpenGL 4.6
// compatibility profile, 21.4.1): queries and everything that answers the
// guest, names, client state and buffer stores. They are never charged, nor
// refused, so a guest waiting for an answer always gets one.
bool runs_while_compiling(uint32_t opcode) {
  static const std::vector<bool> runs = gl_opcodes_named(std::regex(
      "gl(Get|Is|Gen|Create|Delete|Read|Finish$|Flush$|RenderMode$|PixelStore|"
      "FeedbackBuffer$|SelectBuffer$|Map|Unmap|ClientWaitSync$|FenceSync$|DeleteSync$|"
      "NewList$|EndList$|CheckFramebufferStatus|AreTexturesResident$|TestFence|"
      "ObjectPurgeable|QueryMatrix|ClientActiveTexture$|(Enable|Disable)ClientState|"
      "PushClientAttrib$|PopClientAttrib$|.*Pointer$|InterleavedArrays$|"
      "(Named)?Buffer(Sub)?Data|(Named)?BufferStorage).*"));
  return opcode_flag(runs, opcode, true);
}

}  // namespace

bool admit_list_command(GlContextState::Impl& st, uint32_t opcode, uint64_t bytes) {
  if (st.compiling_list == 0 || runs_while_compiling(opcode)) return true;
  if (!st.list_full && st.share->lists.compile(bytes)) {
    st.compiled_bytes += bytes;
    return true;
  }
  st.list_full = true;  // the list is compiled no further, up to glEndList
  st.refused_error = GL_OUT_OF_MEMORY;
  return false;
}

void track_list_bounds(GlContextState::Impl& st, uint32_t opcode) {
  const auto op = static_cast<wire::GlOp>(opcode);
  if (op == wire::GlOp::glNewList && st.compiling_list == 0 && !st.in_begin) {
    // GL may have refused the list (a bad mode, one already open).
    GLint list = 0;
    glGetIntegerv(GL_LIST_INDEX, &list);
    st.compiling_list = static_cast<GLuint>(list);
    st.compiled_bytes = 0;
    st.list_full = false;
  } else if (op == wire::GlOp::glEndList && st.compiling_list != 0 && !st.in_begin) {
    st.share->lists.end(st.compiling_list, st.compiled_bytes);
    st.compiling_list = 0;
    st.compiled_bytes = 0;
  }
}

}  // namespace host
