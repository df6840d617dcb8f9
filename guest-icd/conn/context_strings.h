// The strings glGetString and glGetStringi(GL_EXTENSIONS) answer, fetched in
// one round trip (wire::ControlOp::kContextStrings) and shared by the
// connection's contexts made with the same attributes: the host makes those
// alike, so they answer alike.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "icd/stream.h"
#include "wire/context_strings.h"
#include "wire/control.h"

namespace icd {

// What decides a context's strings: its API, version, profile and flags
// as the guest asked the host for them.
using ContextKey = std::array<uint32_t, 5>;
ContextKey context_key(const wire::CreateContext& request);

class ContextStringsCache {
 public:
  std::shared_ptr<const wire::ContextStrings> find(const ContextKey& key) const;
  void keep(const ContextKey& key, std::shared_ptr<const wire::ContextStrings> strings);

 private:
  mutable std::mutex mu_;
  std::map<ContextKey, std::shared_ptr<const wire::ContextStrings>> by_key_;
};

// Asks the host, on `s`'s context, for its strings; null when the host
// could not send them (past wire::kMaxContextStringsBytes) or is gone.
std::shared_ptr<const wire::ContextStrings> fetch_context_strings(Stream& s);

// False with CONDUIT_NO_CONTEXT_STRINGS set: every string is asked for alone.
bool context_strings_wanted();

}  // namespace icd
