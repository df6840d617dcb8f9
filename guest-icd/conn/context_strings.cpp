#include "conn/context_strings.h"

#include <cstdlib>
#include <utility>

#include "wire/reader.h"

namespace icd {

ContextKey context_key(const wire::CreateContext& request) {
  return {request.api, request.major, request.minor, request.profile, request.flags};
}

std::shared_ptr<const wire::ContextStrings> ContextStringsCache::find(const ContextKey& key) const {
  std::lock_guard lock(mu_);
  auto it = by_key_.find(key);
  return it != by_key_.end() ? it->second : nullptr;
}

void ContextStringsCache::keep(const ContextKey& key, std::shared_ptr<const wire::ContextStrings> strings) {
  std::lock_guard lock(mu_);
  by_key_.emplace(key, std::move(strings));
}

std::shared_ptr<const wire::ContextStrings> fetch_context_strings(Stream& s) {
  wire::Writer& w = s.writer();
  const size_t at = w.begin(static_cast<uint32_t>(wire::ControlOp::kContextStrings));
  w.end(at);
  auto reply = s.roundtrip();
  if (!reply) return nullptr;
  wire::Reader r(*reply, 0);
  auto status = r.get<uint32_t>();
  if (!status || *status != 0) return nullptr;
  auto data = r.get_data();
  if (!data) return nullptr;
  auto strings = wire::decode_context_strings(data->bytes);
  if (!strings) return nullptr;
  return std::make_shared<const wire::ContextStrings>(std::move(*strings));
}

bool context_strings_wanted() {
  static const bool wanted = std::getenv("CONDUIT_NO_CONTEXT_STRINGS") == nullptr;
  return wanted;
}

}  // namespace icd
