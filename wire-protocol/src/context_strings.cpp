// Layout, little-endian u32 except where a Data is named:
//   u32 mask of the named strings present (bit i: kContextStringNames[i]),
//     then each present one as a Data of its bytes (no NUL)
//   u32 indexed, u32 extension count, each extension a Data
#include "wire/context_strings.h"

#include <string>

#include "wire/reader.h"
#include "wire/writer.h"

namespace wire {
namespace {

void put_string(Writer& w, const std::string& s) { w.put_data(s.data(), s.size()); }

std::optional<std::string> get_string(Reader& r) {
  auto d = r.get_data();
  if (!d || d->kind != DataKind::kInline) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(d->bytes.data()), d->bytes.size());
}

}  // namespace

Result<std::vector<std::byte>> encode_context_strings(const ContextStrings& s) {
  Writer w;
  uint32_t mask = 0;
  for (size_t i = 0; i < s.named.size(); ++i) mask |= s.named[i] ? 1u << i : 0u;
  w.put(mask);
  for (const auto& text : s.named) {
    if (text) put_string(w, *text);
  }
  w.put(uint32_t{s.indexed});
  w.put(static_cast<uint32_t>(s.extensions.size()));
  for (const std::string& e : s.extensions) {
    put_string(w, e);
    if (w.size() > kMaxContextStringsBytes) break;
  }
  if (w.size() > kMaxContextStringsBytes) {
    return make_error(Errc::kLimit, "context strings pass " + std::to_string(kMaxContextStringsBytes) + " bytes");
  }
  return std::vector<std::byte>(w.bytes().begin(), w.bytes().end());
}

std::optional<ContextStrings> decode_context_strings(std::span<const std::byte> bytes) {
  Reader r(bytes, 0);
  ContextStrings out;
  auto mask = r.get<uint32_t>();
  if (!mask || *mask >> out.named.size() != 0) return std::nullopt;
  for (size_t i = 0; i < out.named.size(); ++i) {
    if (!(*mask & (1u << i))) continue;
    out.named[i] = get_string(r);
    if (!out.named[i]) return std::nullopt;
  }
  auto indexed = r.get<uint32_t>();
  auto count = r.get<uint32_t>();
  // Each extension takes at least a Data's 8-byte head.
  if (!indexed || *indexed > 1 || !count || *count > r.remaining() / 8) return std::nullopt;
  out.indexed = *indexed != 0;
  for (uint32_t i = 0; i < *count; ++i) {
    auto e = get_string(r);
    if (!e) return std::nullopt;
    out.extensions.push_back(std::move(*e));
  }
  if (r.remaining() != 0) return std::nullopt;
  return out;
}

}  // namespace wire
