// The memory display lists hold, charged to the guest's account. A driver
// keeps a copy of every command compiled into a list, its arguments and data
// included, so a list costs the bytes its commands took on the wire.
//
// The bytes are charged as each command is compiled (a list that would not
// fit is GL_OUT_OF_MEMORY and compiled no further), belong to the list once
// glEndList ends it, replacing what a list of that name held before, and
// are given back by glDeleteLists and when the share group goes.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "host/gl_dispatch.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/sizes.h"

namespace host {

// The lists of one share group (display lists are shared like textures).
class DisplayListCharges {
 public:
  DisplayListCharges() = default;
  // Gives every byte still charged back to the account.
  ~DisplayListCharges() { clear(); }
  DisplayListCharges(const DisplayListCharges&) = delete;
  DisplayListCharges& operator=(const DisplayListCharges&) = delete;

  // The account charged; must outlive these charges.
  void bind(ResourceAccount& account) { account_ = &account; }

  // Charges `bytes` of a list being compiled; false, nothing charged, when
  // they do not fit the guest's limit.
  bool compile(uint64_t bytes);
  // A compile that charged `bytes` ended as `list`, replacing what it held.
  void end(GLuint list, uint64_t bytes);
  // A compile that charged `bytes` ended without a list (its context went).
  void abandon(uint64_t bytes) { give_back(bytes); }
  // glDeleteLists(first, range).
  void erase(GLuint first, GLsizei range);
  void clear() { give_back(charged_); lists_.clear(); }

  uint64_t bytes_of(GLuint list) const;
  // Whether `list` was compiled and not deleted since.
  bool holds(GLuint list) const { return lists_.count(list) != 0; }

 private:
  void give_back(uint64_t bytes);

  ResourceAccount* account_ = nullptr;
  std::unordered_map<GLuint, uint64_t> lists_;
  uint64_t charged_ = 0;  // lists and compiles not ended yet, all together
};

// Before a command runs: charges its `bytes` to the list the context is
// compiling, if GL compiles it into one. False (GL_OUT_OF_MEMORY waits for
// the guest's next glGetError) when the command must not run.
bool admit_list_command(GlContextState::Impl& st, uint32_t opcode, uint64_t bytes);
using wire::size::list_name_bytes;  // the bytes of one name glCallLists reads
// Before a command runs: false when it is a glCallList or glCallLists that
// names a list not compiled yet while a list being compiled has an open
// glBegin (whatever was compiled after it). Mesa 22 looks the called list up at compile time there and
// reads through the null it gets for a missing one; GL would call nothing
// for it now, so such a call is left out of the list (a list defined later
// is therefore not called by it). An array draw there (glDrawArrays,
// glDrawElements...) is left out too: Mesa 22 crashes compiling one inside
// a glBegin, and GL would refuse it when the list runs.
wire::Result<bool> list_calls_fit(const GlContextState::Impl& st, uint32_t opcode, wire::Reader payload);
// After a command ran: notes a list glNewList opened or glEndList ended,
// and a glBegin or glEnd compiled into it.
void track_list_bounds(GlContextState::Impl& st, uint32_t opcode);

}  // namespace host
