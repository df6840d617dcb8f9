// A command's leading values and handles, laid out once per opcode: every
// vkCmd* starts with its command buffer, and most continue with values.
// They are read and written with one bounds check, as the walk over the
// description (vk_codec.cpp) would read and write them; a command that is
// nothing else (vkCmdDraw, vkCmdPushConstants: most of a frame's) is
// decoded here whole.
#include <algorithm>
#include <string>

#include "vk_codec_internal.h"

namespace wire::vk {

using namespace internal;

namespace {

struct FlatParam {
  uint32_t wire;  // offset in the payload
  uint32_t arg;   // offset in the argument record
  uint32_t size;
  bool handle;
  bool dispatchable;
  bool required;  // a handle that must not be null (neither optional nor the dispatching one)
  VkObjectType object_type;
  const char* name;
};

bool is_flat(const MemberDesc& m) {
  if (m.fixed != 1) return false;
  if (m.kind == Kind::kHandle) return true;
  return m.kind == Kind::kScalar && (m.size == 1 || m.size == 2 || m.size == 4 || m.size == 8);
}

}  // namespace

struct FlatPrefix {
  const CommandDesc* cmd = nullptr;
  std::vector<FlatParam> params;
  size_t wire_bytes = 0;
  // Where each value lies on the wire is where it lies in the record (both
  // align values to their size; most commands): the values are copied as
  // one block, and only the handles are looked at one by one.
  bool same_layout = true;
  std::vector<FlatParam> handles;
  std::vector<const MemberDesc*> enums;  // enumerated values, checked for a guest's
  bool requires_handles = false;          // some handle must not be null, checked for a guest's
  bool whole = false;                     // the command is nothing else, but for `bytes`
  const MemberDesc* bytes = nullptr;      // a last byte array a value counts

  FlatPrefix() = default;
  explicit FlatPrefix(const CommandDesc& c) : cmd(&c), whole(is_flat_command(c)) {
    for (const MemberDesc& m : c.fields()) {
      if (!is_flat(m)) break;
      const size_t size = m.kind == Kind::kHandle ? kHandleBytes : m.size;
      wire_bytes = scalar_at(wire_bytes, size);
      const bool required = m.kind == Kind::kHandle && !m.optional && !m.dispatchable;
      params.push_back({static_cast<uint32_t>(wire_bytes), m.offset, static_cast<uint32_t>(size),
                        m.kind == Kind::kHandle, m.dispatchable, required, m.object_type, m.name});
      if (m.kind == Kind::kHandle) handles.push_back(params.back());
      requires_handles = requires_handles || required;
      if (m.known) enums.push_back(&m);
      same_layout = same_layout && wire_bytes == m.offset;
      wire_bytes += size;
    }
    if (whole && params.size() < c.param_count) bytes = &c.params[params.size()];
  }
};

namespace {

// Made on first use: tables of other files, made when the program starts,
// ask for their commands' layouts (the host's runners).
const std::vector<FlatPrefix>& flat_prefixes() {
  static const std::vector<FlatPrefix> table =
      per_command<FlatPrefix>([](const CommandDesc& c) { return FlatPrefix(c); });
  return table;
}

const FlatPrefix& flat_prefix(const CommandDesc& cmd) { return *entry_of(flat_prefixes(), cmd.opcode); }

// A guest's enumerated parameter holds a value of its type, and a bitmask
// only its type's bits: the host loads it as that type, and drivers index
// tables by it. A guest's required handle is not null: drivers follow it
// (vkGetEventStatus of a null event).
Status check_guest_values(const FlatPrefix& prefix, const void* args, const Handles& h, size_t at_offset) {
  if ((prefix.enums.empty() && !prefix.requires_handles) || !h.from_guest()) return {};
  const auto* record = static_cast<const std::byte*>(args);
  for (const MemberDesc* m : prefix.enums)
    if (!m->known(load<uint32_t>(record + m->offset))) return bad(*m, "a value its type does not have", at_offset);
  for (const FlatParam& p : prefix.handles)
    if (p.required && !load<uint64_t>(record + p.arg))
      return make_error(Errc::kBadName, std::string(prefix.cmd->name) + " of a null handle", at_offset);
  return {};
}

Error bad_handle(const FlatParam& p, const Error& e, size_t at) {
  return make_error(e.code, std::string(p.name) + ": " + e.detail, at);
}

// The prefix's values and handles, or false (nothing read) when the payload
// is too short for them.
Result<bool> decode_values(Reader& r, const FlatPrefix& prefix, void* args, Handles& h) {
  const size_t start = r.offset();
  const std::byte* src = r.take(prefix.wire_bytes);
  if (!src) return false;
  if (prefix.same_layout) {
    std::memcpy(args, src, prefix.wire_bytes);
    for (const FlatParam& p : prefix.handles) {
      auto v = h.from_wire(p.object_type, p.dispatchable, load<uint64_t>(src + p.wire));
      if (!v) return bad_handle(p, v.error(), start + p.wire);
      store(at(args, p.arg), *v);
    }
  } else {
    for (const FlatParam& p : prefix.params) {
      std::byte* field = at(args, p.arg);
      if (!p.handle) {
        copy_scalar(field, src + p.wire, p.size);
        continue;
      }
      auto v = h.from_wire(p.object_type, p.dispatchable, load<uint64_t>(src + p.wire));
      if (!v) return bad_handle(p, v.error(), start + p.wire);
      store(field, *v);
    }
  }
  WIRE_TRY(check_guest_values(prefix, args, h, r.offset()));
  return true;
}

}  // namespace

size_t internal::encode_flat(Writer& w, const CommandDesc& cmd, const void* args, Handles& h) {
  const FlatPrefix& prefix = flat_prefix(cmd);
  std::byte* dst = w.put_zeroed(prefix.wire_bytes);
  if (!dst) return 0;
  for (const FlatParam& p : prefix.params) {
    const std::byte* field = at(args, p.arg);
    if (!p.handle)
      copy_scalar(dst + p.wire, field, p.size);
    else
      store(dst + p.wire, h.to_wire(p.object_type, p.dispatchable, load<uint64_t>(field)));
  }
  return prefix.params.size();
}

Result<uint32_t> internal::decode_flat(Reader& r, const CommandDesc& cmd, void* args, Handles& h) {
  const FlatPrefix& prefix = flat_prefix(cmd);
  auto read = decode_values(r, prefix, args, h);
  if (!read) return read.error();
  return *read ? static_cast<uint32_t>(prefix.params.size()) : 0u;
}

// From the description alone (FlatPrefix asks it while it is made).
bool is_flat_command(const CommandDesc& cmd) {
  size_t flat = 0;
  while (flat < cmd.param_count && is_flat(cmd.params[flat])) ++flat;
  const size_t rest = cmd.param_count - flat;
  if (rest == 0) return true;
  const MemberDesc& last = cmd.params[cmd.param_count - 1];
  return rest == 1 && last.kind == Kind::kBytes && last.count;
}

const FlatPrefix* flat_command(const CommandDesc& cmd) {
  const FlatPrefix* prefix = entry_of(flat_prefixes(), cmd.opcode);
  return prefix && prefix->whole ? prefix : nullptr;
}

Status decode_flat_command(Reader& r, const FlatPrefix& flat, void* args, Handles& handles) {
  const size_t start = r.offset();
  auto read = decode_values(r, flat, args, handles);
  if (!read) return read.error();
  if (!*read)
    return make_error(Errc::kTruncated, std::string(flat.cmd->name) + ": the payload ends inside its values", start);
  if (!flat.bytes) return nothing_after(r);
  const MemberDesc& bytes = *flat.bytes;
  auto data = r.get_data();
  if (!data) return data.error();
  const uint64_t want = bytes.count(args);
  if (data->is_null() ? want && !bytes.optional : data->bytes.size() != want)
    return bad(bytes, std::to_string(data->bytes.size()) + " bytes sent, " + std::to_string(want) + " to be read",
               start);
  store(at(args, bytes.offset), data->ptr());
  return nothing_after(r);
}

Status decode_flat_command(Reader& r, const CommandDesc& cmd, void* args, Handles& handles) {
  const FlatPrefix* flat = flat_command(cmd);
  if (!flat) return make_error(Errc::kBadValue, std::string(cmd.name) + " is not a flat command", r.offset());
  return decode_flat_command(r, *flat, args, handles);
}

}  // namespace wire::vk
