// Layout, all little-endian u32 / i32 except where a Data is named:
//   u32 value count, then (u32 pname, i32 value) pairs
//   u32 1 and Data log bytes (no NUL), or u32 0
//   u32 interface known; when 1:
//     u32 attribute count, each: u32 type, i32 size, i32 location, u32 elements_follow, Data name
//     u32 uniform count, the same
//     u32 block count, each: Data name
#include "wire/program_reflection.h"

#include "wire/reader.h"
#include "wire/writer.h"

namespace wire {
namespace {

void put_string(Writer& w, const std::string& s) { w.put_data(s.data(), s.size()); }

void put_variables(Writer& w, const std::vector<ReflectedVariable>& list) {
  w.put(static_cast<uint32_t>(list.size()));
  for (const ReflectedVariable& v : list) {
    w.put(v.type);
    w.put(v.size);
    w.put(v.location);
    w.put(uint32_t{v.elements_follow});
    put_string(w, v.name);
  }
}

std::vector<std::byte> encode_all(const ProgramReflection& r, bool with_interface) {
  Writer w;
  w.put(static_cast<uint32_t>(r.values.size()));
  for (auto [pname, value] : r.values) {
    w.put(pname);
    w.put(value);
  }
  w.put(uint32_t{r.info_log.has_value()});
  if (r.info_log) put_string(w, *r.info_log);
  w.put(uint32_t{with_interface});
  if (with_interface) {
    put_variables(w, r.attributes);
    put_variables(w, r.uniforms);
    w.put(static_cast<uint32_t>(r.blocks.size()));
    for (const std::string& b : r.blocks) put_string(w, b);
  }
  return {w.bytes().begin(), w.bytes().end()};
}

std::optional<std::string> get_string(Reader& r) {
  auto d = r.get_data();
  if (!d || d->kind != DataKind::kInline) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(d->bytes.data()), d->bytes.size());
}

// A count of entries that each take at least `least` bytes of what is left.
std::optional<uint32_t> get_count(Reader& r, size_t least) {
  auto n = r.get<uint32_t>();
  if (!n || *n > r.remaining() / least) return std::nullopt;
  return *n;
}

bool get_variables(Reader& r, std::vector<ReflectedVariable>& out) {
  auto n = get_count(r, 24);
  if (!n) return false;
  for (uint32_t i = 0; i < *n; ++i) {
    ReflectedVariable v;
    auto type = r.get<uint32_t>();
    auto size = r.get<int32_t>();
    auto location = r.get<int32_t>();
    auto follow = r.get<uint32_t>();
    auto name = get_string(r);
    if (!type || !size || !location || !follow || !name) return false;
    v.type = *type;
    v.size = *size;
    v.location = *location;
    v.elements_follow = *follow != 0;
    v.name = std::move(*name);
    out.push_back(std::move(v));
  }
  return true;
}

}  // namespace

std::vector<std::byte> encode_reflection(const ProgramReflection& r) {
  if (r.interface_known) {
    auto bytes = encode_all(r, true);
    if (bytes.size() <= kMaxReflectionBytes) return bytes;
  }
  return encode_all(r, false);
}

std::optional<ProgramReflection> decode_reflection(std::span<const std::byte> bytes) {
  Reader r(bytes, 0);
  ProgramReflection out;
  auto values = get_count(r, 8);
  if (!values) return std::nullopt;
  for (uint32_t i = 0; i < *values; ++i) {
    auto pname = r.get<uint32_t>();
    auto value = r.get<int32_t>();
    if (!pname || !value) return std::nullopt;
    out.values.emplace_back(*pname, *value);
  }
  auto has_log = r.get<uint32_t>();
  if (!has_log) return std::nullopt;
  if (*has_log) {
    out.info_log = get_string(r);
    if (!out.info_log) return std::nullopt;
  }
  auto known = r.get<uint32_t>();
  if (!known) return std::nullopt;
  out.interface_known = *known != 0;
  if (out.interface_known) {
    if (!get_variables(r, out.attributes) || !get_variables(r, out.uniforms)) return std::nullopt;
    auto blocks = get_count(r, 8);
    if (!blocks) return std::nullopt;
    for (uint32_t i = 0; i < *blocks; ++i) {
      auto name = get_string(r);
      if (!name) return std::nullopt;
      out.blocks.push_back(std::move(*name));
    }
  }
  if (r.remaining() != 0) return std::nullopt;
  return out;
}

}  // namespace wire
