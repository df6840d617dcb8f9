#include "command_stream.h"

#include <cstring>
#include <unordered_map>

#include "wire/reader.h"

namespace fuzz {

std::vector<Command> split_commands(std::span<const uint8_t> bytes) {
  std::vector<Command> out;
  size_t at = 0;
  while (bytes.size() - at >= sizeof(wire::CommandHeader)) {
    wire::CommandHeader h;
    std::memcpy(&h, bytes.data() + at, sizeof h);
    if (h.size < sizeof h || h.size % wire::kAlign != 0 || h.size > bytes.size() - at) break;
    auto* p = reinterpret_cast<const std::byte*>(bytes.data() + at + sizeof h);
    out.push_back({h.opcode, std::vector<std::byte>(p, p + h.size - sizeof h)});
    at += h.size;
  }
  return out;
}

size_t join_commands(const std::vector<Command>& commands, uint8_t* out, size_t max) {
  size_t at = 0;
  for (const Command& c : commands) {
    size_t size = sizeof(wire::CommandHeader) + wire::align_up(c.payload.size());
    if (size > max - at || size > UINT32_MAX) continue;
    wire::CommandHeader h{c.opcode, static_cast<uint32_t>(size)};
    std::memcpy(out + at, &h, sizeof h);
    if (!c.payload.empty()) std::memcpy(out + at + sizeof h, c.payload.data(), c.payload.size());
    std::memset(out + at + sizeof h + c.payload.size(), 0, size - sizeof h - c.payload.size());
    at += size;
  }
  return at;
}

const CommandSpec* find_command(uint32_t opcode) {
  static const std::unordered_map<uint32_t, const CommandSpec*> by_opcode = [] {
    std::unordered_map<uint32_t, const CommandSpec*> m;
    for (const CommandSpec& c : gl_commands()) m[c.opcode] = &c;
    return m;
  }();
  auto it = by_opcode.find(opcode);
  return it == by_opcode.end() ? nullptr : it->second;
}

namespace {

std::optional<uint64_t> read_scalar(wire::Reader& r, uint8_t bytes) {
  switch (bytes) {
    case 1: if (auto v = r.get<uint8_t>()) return *v; break;
    case 2: if (auto v = r.get<uint16_t>()) return *v; break;
    case 4: if (auto v = r.get<uint32_t>()) return *v; break;
    case 8: if (auto v = r.get<uint64_t>()) return *v; break;
  }
  return std::nullopt;
}

void write_scalar(wire::Writer& w, uint8_t bytes, uint64_t v) {
  switch (bytes) {
    case 1: w.put(static_cast<uint8_t>(v)); break;
    case 2: w.put(static_cast<uint16_t>(v)); break;
    case 4: w.put(static_cast<uint32_t>(v)); break;
    default: w.put(v); break;
  }
}

// Data as Reader::get_data lays it out. Heap references are read by hand and
// kept as they are: this side has no heap to resolve them in.
std::optional<Arg> read_data(wire::Reader& r) {
  wire::Reader probe = r;
  auto kind = probe.get<uint32_t>();
  if (!kind) return std::nullopt;
  Arg a;
  a.kind = static_cast<wire::DataKind>(*kind);
  if (a.kind == wire::DataKind::kHeap) {
    auto off = probe.get<uint64_t>();
    if (!off) return std::nullopt;
    auto len = probe.get<uint32_t>();
    if (!len) return std::nullopt;
    a.offset = *off;
    a.heap_length = *len;
    r = probe;
    return a;
  }
  auto d = r.get_data();
  if (!d) return std::nullopt;
  a.offset = d->offset;
  a.bytes.assign(d->bytes.begin(), d->bytes.end());
  return a;
}

}  // namespace

std::optional<std::vector<Arg>> parse_args(const CommandSpec& spec, std::span<const std::byte> payload) {
  wire::Reader r(payload, 0);
  std::vector<Arg> args;
  for (const ArgSpec& s : args_of(spec)) {
    if (!is_data(s.kind)) {
      auto v = read_scalar(r, s.bytes);
      if (!v) return std::nullopt;
      args.push_back(Arg{.scalar = *v});
      continue;
    }
    auto a = read_data(r);
    if (!a) return std::nullopt;
    args.push_back(std::move(*a));
  }
  return args;
}

Command encode_command(const CommandSpec& spec, const std::vector<Arg>& args) {
  static const std::byte kEmpty{};
  wire::Writer w;
  size_t start = w.begin(spec.opcode);
  auto specs = args_of(spec);
  for (size_t i = 0; i < specs.size() && i < args.size(); ++i) {
    const ArgSpec& s = specs[i];
    const Arg& a = args[i];
    if (!is_data(s.kind)) {
      write_scalar(w, s.bytes, a.scalar);
      continue;
    }
    switch (a.kind) {
      case wire::DataKind::kNull: w.put_data(nullptr, 0); break;
      case wire::DataKind::kInline: w.put_data(a.bytes.empty() ? &kEmpty : a.bytes.data(), a.bytes.size()); break;
      case wire::DataKind::kBufferOffset: w.put_buffer_offset(a.offset); break;
      default:
        w.put(static_cast<uint32_t>(a.kind));
        w.put(a.offset);
        w.put(a.heap_length);
        break;
    }
  }
  w.end(start);
  auto bytes = w.bytes().subspan(sizeof(wire::CommandHeader));
  return {spec.opcode, std::vector<std::byte>(bytes.begin(), bytes.end())};
}

}  // namespace fuzz
