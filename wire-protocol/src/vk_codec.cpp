// The Vulkan codec: walks generated descriptions (wire/vk_codec.h).
#include "wire/vk_codec.h"

#include "vk_codec_internal.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace wire::vk {

using namespace internal;

Error internal::bad(const MemberDesc& m, const std::string& what, size_t at) {
  return make_error(Errc::kBadValue, std::string(m.name) + ": " + what, at);
}

namespace {

// A program's chain longer than this is taken as a loop in its memory.
constexpr int kMaxChain = 256;
// The fewest bytes one element of each kind takes on the wire: what bounds
// the elements a count may claim by the bytes present.
constexpr uint64_t kMinStructBytes = 4;

uint64_t elements(const MemberDesc& m, const void* owner) { return m.count ? m.count(owner) : 1; }

// The element counts the wire gave a structure's pointer members, read
// before the structure's own counts are known: on the stack for all but
// the few structures of many members.
class SentCounts {
 public:
  explicit SentCounts(size_t members) : n_(members) {
    if (members > kLocal) heap_.resize(members);
    std::fill_n(data(), members, UINT64_MAX);
  }
  uint64_t* data() { return n_ > kLocal ? heap_.data() : local_; }
  uint64_t& operator[](size_t i) { return data()[i]; }
  std::span<const uint64_t> all() { return {data(), n_}; }

 private:
  static constexpr size_t kLocal = 24;
  size_t n_;
  uint64_t local_[kLocal];
  std::vector<uint64_t> heap_;
};

// -- scalars -----------------------------------------------------------------

Status get_block(Reader& r, std::byte* dst, uint64_t bytes);

void put_scalars(Writer& w, const void* p, uint32_t size, uint64_t n) {
  if (n == 1) {
    switch (size) {
      case 1: return w.put(load<uint8_t>(static_cast<const std::byte*>(p)));
      case 2: return w.put(load<uint16_t>(static_cast<const std::byte*>(p)));
      case 4: return w.put(load<uint32_t>(static_cast<const std::byte*>(p)));
      case 8: return w.put(load<uint64_t>(static_cast<const std::byte*>(p)));
      default: break;
    }
  }
  w.put_data(p, n * size);
}

template <typename T>
Status get_one(Reader& r, std::byte* dst) {
  auto v = r.get<T>();
  if (!v) return v.error();
  store(dst, *v);
  return {};
}

Status get_scalars(Reader& r, std::byte* dst, uint32_t size, uint64_t n) {
  if (n == 1) {
    switch (size) {
      case 1: return get_one<uint8_t>(r, dst);
      case 2: return get_one<uint16_t>(r, dst);
      case 4: return get_one<uint32_t>(r, dst);
      case 8: return get_one<uint64_t>(r, dst);
      default: break;
    }
  }
  return get_block(r, dst, n * size);
}

// Bytes that always travel as one block (arrays of values).
Status get_block(Reader& r, std::byte* dst, uint64_t bytes) {
  const size_t where = r.offset();
  auto d = r.get_data();
  if (!d) return d.error();
  if (d->is_null() || d->bytes.size() != bytes)
    return make_error(Errc::kBadLength, std::to_string(bytes) + " bytes expected", where);
  if (bytes) std::memcpy(dst, d->bytes.data(), bytes);
  return {};
}

Result<uint64_t> get_count(Reader& r, uint64_t min_bytes) {
  const size_t where = r.offset();
  auto n = r.get<uint64_t>();
  if (!n) return n.error();
  if (min_bytes && *n > r.remaining() / min_bytes)
    return make_error(Errc::kBadLength, std::to_string(*n) + " elements cannot fit the command", where);
  return *n;
}

Result<bool> get_present(Reader& r) {
  const size_t where = r.offset();
  auto v = r.get<uint32_t>();
  if (!v) return v.error();
  if (*v > 1) return make_error(Errc::kBadValue, "a presence flag of " + std::to_string(*v), where);
  return *v == 1;
}

// -- encoding (the side whose program made the values) -------------------------

void encode_body(Writer& w, const StructDesc& d, const void* s, Handles& h, bool in_chain);

// Calls `each(item, desc)` for the structures of a program's chain that
// travel: known here, allowed by the parent or a structure before them,
// once each. What this side does not carry is left out, as a driver
// ignores structures it does not know.
template <typename Each>
void each_carried(const StructDesc& parent, const void* next, Each each) {
  std::vector<const StructDesc*> sent;
  auto* item = static_cast<const VkBaseInStructure*>(next);
  for (int i = 0; item && i < kMaxChain; item = item->pNext, ++i) {
    const StructDesc* d = struct_by_stype(item->sType);
    if (!d || std::find(sent.begin(), sent.end(), d) != sent.end()) continue;
    bool allowed = parent.may_extend_with(item->sType);
    for (const StructDesc* before : sent) allowed = allowed || before->may_extend_with(item->sType);
    if (!allowed) continue;
    sent.push_back(d);
    each(item, *d);
  }
}

void encode_chain(Writer& w, const StructDesc& parent, const void* next, Handles& h) {
  each_carried(parent, next, [&](const VkBaseInStructure* item, const StructDesc& d) {
    w.put(static_cast<uint32_t>(item->sType));
    encode_body(w, d, item, h, true);
  });
  w.put(uint32_t{0});
}

void put_string(Writer& w, const char* s) { w.put_data(s, s ? std::strlen(s) + 1 : 0); }

void encode_elements(Writer& w, const MemberDesc& m, const void* p, uint64_t n, Handles& h) {
  switch (m.elem) {
    case Elem::kScalar:
      w.put_data(p, n * m.size);
      break;
    case Elem::kHandle:
      for (uint64_t i = 0; i < n; ++i)
        w.put(h.to_wire(m.object_type, m.dispatchable, load<uint64_t>(at(p, 0) + i * 8)));
      break;
    case Elem::kStruct:
      for (uint64_t i = 0; i < n; ++i) encode_body(w, *m.type, at(p, 0) + i * m.size, h, false);
      break;
  }
}

void encode_member(Writer& w, const StructDesc* owner_desc, const MemberDesc& m, const void* owner,
                   Handles& h, bool in_chain) {
  const std::byte* field = at(owner, m.offset);
  const bool pointer = m.kind == Kind::kPNext || (m.kind >= Kind::kString && m.kind != Kind::kAllocator);
  const void* p = pointer ? load<const void*>(field) : nullptr;
  switch (m.kind) {
    case Kind::kScalar:
      put_scalars(w, field, m.size, m.fixed);
      break;
    case Kind::kHandle:
      for (uint32_t i = 0; i < m.fixed; ++i)
        w.put(h.to_wire(m.object_type, m.dispatchable, load<uint64_t>(field + i * 8)));
      break;
    case Kind::kStruct:
      for (uint32_t i = 0; i < m.fixed; ++i) encode_body(w, *m.type, field + i * m.size, h, false);
      break;
    case Kind::kPNext:
      if (!in_chain) encode_chain(w, *owner_desc, p, h);
      break;
    case Kind::kString:
      put_string(w, static_cast<const char*>(p));
      break;
    case Kind::kStrings: {
      w.put(uint32_t{p != nullptr});
      if (!p) break;
      const uint64_t n = elements(m, owner);
      w.put(n);
      for (uint64_t i = 0; i < n; ++i) put_string(w, static_cast<const char* const*>(p)[i]);
      break;
    }
    case Kind::kArray:
      w.put(uint32_t{p != nullptr});
      if (!p) break;
      w.put(elements(m, owner));
      encode_elements(w, m, p, elements(m, owner), h);
      break;
    case Kind::kBytes:
      w.put_data(p, p ? elements(m, owner) : 0);
      break;
    default:
      break;  // command parameters: encode_args
  }
}

void encode_body(Writer& w, const StructDesc& d, const void* s, Handles& h, bool in_chain) {
  for (const MemberDesc& m : d.fields()) encode_member(w, &d, m, s, h, in_chain);
}

// The sTypes of a chain the program wants filled, as encode_chain would send them.
void encode_shape(Writer& w, const StructDesc& parent, const void* next) {
  each_carried(parent, next, [&](const VkBaseInStructure* item, const StructDesc&) {
    w.put(static_cast<uint32_t>(item->sType));
  });
  w.put(uint32_t{0});
}

// -- decoding into memory of the decoding side's own --------------------------

Status decode_body(Reader& r, const StructDesc& d, Arena& a, void* s, Handles& h, bool in_chain);

// The next structure of a chain, checked: known, allowed where it is (by
// `parent` or a structure before it, `before`), once.
Result<const StructDesc*> chain_item(Reader& r, const StructDesc& parent, std::span<const StructDesc* const> before,
                                     bool* end) {
  const size_t where = r.offset();
  auto st = r.get<uint32_t>();
  if (!st) return st.error();
  *end = *st == 0;
  if (*end) return nullptr;
  // Every structure type is below 2^31; a larger value is not one of the
  // enum's, and may not even be held in a VkStructureType.
  if (*st > static_cast<uint32_t>(INT32_MAX))
    return make_error(Errc::kBadValue, "unknown structure type " + std::to_string(*st), where);
  auto t = static_cast<VkStructureType>(*st);
  const StructDesc* d = struct_by_stype(t);
  if (!d) return make_error(Errc::kBadValue, "unknown structure type " + std::to_string(*st), where);
  bool allowed = parent.may_extend_with(t);
  for (const StructDesc* c : before) {
    if (c->stype == t) return make_error(Errc::kBadValue, std::string(d->name) + " twice in a chain", where);
    allowed = allowed || c->may_extend_with(t);
  }
  if (!allowed) return make_error(Errc::kBadValue, std::string(d->name) + " cannot extend " + parent.name, where);
  return d;
}

// With `h` null only the shape travels: which structures, not their contents.
Result<void*> decode_chain(Reader& r, const StructDesc& parent, Arena& a, Handles* h) {
  std::vector<const StructDesc*> chain;
  void* first = nullptr;
  VkBaseOutStructure* last = nullptr;
  for (;;) {
    bool end = false;
    auto d = chain_item(r, parent, chain, &end);
    if (!d) return d.error();
    if (end) return first;
    auto mem = a.alloc(1, (*d)->size, r.offset());
    if (!mem) return mem.error();
    if (h) WIRE_TRY(decode_body(r, **d, a, *mem, *h, true));
    auto* item = static_cast<VkBaseOutStructure*>(*mem);
    item->sType = (*d)->stype;
    item->pNext = nullptr;
    (last ? last->pNext : reinterpret_cast<VkBaseOutStructure*&>(first)) = item;
    last = item;
    chain.push_back(*d);
  }
}

Result<const char*> decode_string(Reader& r, Arena& a) {
  const size_t where = r.offset();
  auto d = r.get_data();
  if (!d) return d.error();
  if (d->is_null()) return static_cast<const char*>(nullptr);
  if (d->bytes.empty() || d->bytes.back() != std::byte{0})
    return make_error(Errc::kBadValue, "a string without its terminator", where);
  auto mem = a.alloc(1, d->bytes.size(), where);
  if (!mem) return mem.error();
  std::memcpy(*mem, d->bytes.data(), d->bytes.size());
  return static_cast<const char*>(*mem);
}

Status decode_handles(Reader& r, const MemberDesc& m, std::byte* dst, uint64_t n, Handles& h) {
  for (uint64_t i = 0; i < n; ++i) {
    const size_t where = r.offset();
    auto id = r.get<uint64_t>();
    if (!id) return id.error();
    auto v = h.from_wire(m.object_type, m.dispatchable, *id);
    if (!v) return make_error(v.error().code, std::string(m.name) + ": " + v.error().detail, where);
    store(dst + i * 8, *v);
  }
  return {};
}

Result<void*> decode_elements(Reader& r, const MemberDesc& m, Arena& a, uint64_t n, Handles& h) {
  const size_t where = r.offset();
  if (m.elem == Elem::kScalar) {
    auto d = r.get_data();
    if (!d) return d.error();
    if (d->is_null() || d->bytes.size() / m.size != n || d->bytes.size() % m.size)
      return bad(m, std::to_string(n) + " elements expected", where);
    auto mem = a.alloc(n, m.size, where);
    if (!mem) return mem.error();
    if (n) std::memcpy(*mem, d->bytes.data(), d->bytes.size());
    return *mem;
  }
  if (n > r.remaining() / (m.elem == Elem::kHandle ? kHandleBytes : kMinStructBytes))
    return bad(m, std::to_string(n) + " elements cannot fit the command", where);
  auto mem = a.alloc(n, m.size, where);
  if (!mem) return mem.error();
  auto* out = static_cast<std::byte*>(*mem);
  if (m.elem == Elem::kHandle) {
    WIRE_TRY(decode_handles(r, m, out, n, h));
  } else {
    for (uint64_t i = 0; i < n; ++i) WIRE_TRY(decode_body(r, *m.type, a, out + i * m.size, h, false));
  }
  return *mem;
}

// Decodes a pointer member; `sent` gets the element count the wire gave
// (UINT64_MAX for a null pointer), checked against the owner afterwards.
Status decode_pointer(Reader& r, const MemberDesc& m, Arena& a, std::byte* field, Handles& h, uint64_t* sent) {
  *sent = UINT64_MAX;
  void* p = nullptr;
  switch (m.kind) {
    case Kind::kString: {
      auto s = decode_string(r, a);
      if (!s) return s.error();
      if (*s) *sent = 1;
      p = const_cast<char*>(*s);
      break;
    }
    case Kind::kStrings: {
      auto present = get_present(r);
      if (!present) return present.error();
      if (!*present) break;
      auto n = get_count(r, kMinStructBytes);
      if (!n) return n.error();
      auto mem = a.alloc(*n, sizeof(const char*), r.offset());
      if (!mem) return mem.error();
      for (uint64_t i = 0; i < *n; ++i) {
        const size_t where = r.offset();
        auto s = decode_string(r, a);
        if (!s) return s.error();
        if (!*s) return bad(m, "a null string", where);
        static_cast<const char**>(*mem)[i] = *s;
      }
      *sent = *n;
      p = *mem;
      break;
    }
    case Kind::kArray: {
      auto present = get_present(r);
      if (!present) return present.error();
      if (!*present) break;
      auto n = get_count(r, 0);
      if (!n) return n.error();
      auto mem = decode_elements(r, m, a, *n, h);
      if (!mem) return mem.error();
      *sent = *n;
      p = *mem;
      break;
    }
    case Kind::kBytes: {
      const size_t where = r.offset();
      auto d = r.get_data();
      if (!d) return d.error();
      if (d->is_null()) break;
      auto mem = a.alloc(1, d->bytes.size(), where);
      if (!mem) return mem.error();
      if (!d->bytes.empty()) std::memcpy(*mem, d->bytes.data(), d->bytes.size());
      *sent = d->bytes.size();
      p = *mem;
      break;
    }
    default:
      break;
  }
  store(field, p);
  return {};
}

// A pointer's elements as the wire gave them must be what the driver will
// read, by the owner's own counts; a null pointer only where it may be.
Status check_counts(std::span<const MemberDesc> members, std::span<const uint64_t> sent, const void* owner,
                    size_t where) {
  for (size_t i = 0; i < members.size(); ++i) {
    const MemberDesc& m = members[i];
    if (m.kind < Kind::kString || m.kind == Kind::kAllocator || m.kind == Kind::kString) continue;
    if (m.kind == Kind::kOutScalar) continue;
    const uint64_t want = elements(m, owner);
    if (sent[i] == UINT64_MAX) {
      if (want && !m.optional && m.kind != Kind::kOutArray)
        return bad(m, "null, but " + std::to_string(want) + " elements are to be read", where);
      continue;
    }
    if (sent[i] != want)
      return bad(m, std::to_string(sent[i]) + " elements sent, " + std::to_string(want) + " to be read", where);
  }
  return {};
}

Status decode_member(Reader& r, const StructDesc& d, const MemberDesc& m, Arena& a, void* s, Handles& h,
                     bool in_chain, uint64_t* sent) {
  std::byte* field = at(s, m.offset);
  switch (m.kind) {
    case Kind::kScalar:
      WIRE_TRY(get_scalars(r, field, m.size, m.fixed));
      // Drivers index tables by enumerated values (lavapipe: a sampler's)
      // and by some bitmasks (a cull mode).
      if (m.known && h.from_guest())
        for (uint32_t i = 0; i < m.fixed; ++i)
          if (!m.known(load<uint32_t>(field + i * sizeof(uint32_t))))
            return bad(m, "a value its type does not have", r.offset());
      return {};
    case Kind::kHandle:
      WIRE_TRY(decode_handles(r, m, field, m.fixed, h));
      if (!m.optional && h.from_guest())
        for (uint32_t i = 0; i < m.fixed; ++i)
          if (!load<uint64_t>(field + i * kHandleBytes)) return bad(m, "a null handle where one is required", r.offset());
      return {};
    case Kind::kStruct:
      for (uint32_t i = 0; i < m.fixed; ++i) WIRE_TRY(decode_body(r, *m.type, a, field + i * m.size, h, false));
      return {};
    case Kind::kPNext: {
      if (in_chain) return {};  // the chain's owner links it
      auto next = decode_chain(r, d, a, &h);
      if (!next) return next.error();
      store(field, *next);
      return {};
    }
    default:
      return decode_pointer(r, m, a, field, h, sent);
  }
}

Status decode_body(Reader& r, const StructDesc& d, Arena& a, void* s, Handles& h, bool in_chain) {
  const size_t start = r.offset();
  SentCounts sent(d.member_count);
  for (uint32_t i = 0; i < d.member_count; ++i)
    WIRE_TRY(decode_member(r, d, d.members[i], a, s, h, in_chain, &sent[i]));
  // The structure is what its description says, whatever the sender wrote.
  if (d.stype) static_cast<VkBaseOutStructure*>(s)->sType = d.stype;
  WIRE_TRY(check_counts(d.fields(), sent.all(), s, start));
  auto sizes = check_struct_sizes(d, s);
  if (!sizes) return make_error(sizes.error().code, sizes.error().detail, start);
  return {};
}

// -- writing another side's answer into the program's memory -----------------

Status decode_into(Reader& r, const StructDesc& d, void* s, Handles& h, bool in_chain);

Status decode_chain_into(Reader& r, const StructDesc& parent, void* next, Handles& h) {
  std::vector<const StructDesc*> chain;
  for (;;) {
    bool end = false;
    const size_t where = r.offset();
    auto d = chain_item(r, parent, chain, &end);
    if (!d) return d.error();
    if (end) return {};
    auto* item = static_cast<VkBaseOutStructure*>(next);
    for (int i = 0; item && item->sType != (*d)->stype && i < kMaxChain; ++i) item = item->pNext;
    if (!item || item->sType != (*d)->stype)
      return make_error(Errc::kBadValue, std::string((*d)->name) + " was not asked for", where);
    WIRE_TRY(decode_into(r, **d, item, h, true));
    chain.push_back(*d);
  }
}

Status decode_into(Reader& r, const StructDesc& d, void* s, Handles& h, bool in_chain) {
  for (const MemberDesc& m : d.fields()) {
    std::byte* field = at(s, m.offset);
    switch (m.kind) {
      case Kind::kScalar:
        WIRE_TRY(get_scalars(r, field, m.size, m.fixed));
        break;
      case Kind::kHandle:
        WIRE_TRY(decode_handles(r, m, field, m.fixed, h));
        break;
      case Kind::kStruct:
        for (uint32_t i = 0; i < m.fixed; ++i) WIRE_TRY(decode_into(r, *m.type, field + i * m.size, h, false));
        break;
      case Kind::kPNext:
        if (!in_chain) WIRE_TRY(decode_chain_into(r, d, load<void*>(field), h));
        break;
      default:
        return bad(m, "a pointer in a returned structure is not carried", r.offset());
    }
  }
  return {};
}

}  // namespace

bool StructDesc::may_extend_with(VkStructureType t) const {
  return std::find(next, next + next_count, t) != next + next_count;
}

const StructDesc* struct_by_stype(VkStructureType stype) {
  auto all = structs_by_stype();
  auto it = std::lower_bound(all.begin(), all.end(), stype,
                             [](const StypeEntry& e, VkStructureType t) { return e.stype < t; });
  return it != all.end() && it->stype == stype ? it->desc : nullptr;
}

// Vulkan's opcodes are dense from kFirstVkOpcode: one look into a table
// indexed by them, for every command a guest sends.
const CommandDesc* command_desc(uint32_t opcode) {
  static const auto by_opcode = per_command<const CommandDesc*>([](const CommandDesc& c) { return &c; });
  const CommandDesc* const* entry = entry_of(by_opcode, opcode);
  return entry ? *entry : nullptr;
}

const MemberDesc* destroyed_param(const CommandDesc& cmd) {
  if (!cmd.ends_objects) return nullptr;
  auto params = cmd.fields();
  for (auto it = params.rbegin(); it != params.rend(); ++it)
    if (it->kind == Kind::kHandle || (it->kind == Kind::kArray && it->elem == Elem::kHandle)) return &*it;
  return nullptr;
}

Result<void*> Arena::alloc_any(uint64_t count, uint64_t size, size_t at) {
  constexpr size_t kBlock = 64u << 10;
  uint64_t wanted = 0;
  if (__builtin_mul_overflow(count, size, &wanted) || wanted > limit_ - std::min(limit_, used_))
    return make_error(Errc::kLimit, "more than " + std::to_string(limit_ >> 20) + " MiB for one command", at);
  const size_t bytes = round_up(std::max<size_t>(wanted, 1));
  while (current_ < blocks_.size() && blocks_[current_].size - offset_ < bytes) {
    ++current_;
    offset_ = 0;
  }
  if (current_ == blocks_.size()) {
    blocks_.push_back({std::make_unique<std::byte[]>(std::max(bytes, kBlock)), std::max(bytes, kBlock)});
    offset_ = 0;
  }
  std::byte* p = blocks_[current_].bytes.get() + offset_;
  std::memset(p, 0, bytes);
  offset_ += bytes;
  used_ += bytes;
  return static_cast<void*>(p);
}

// What one large command needed is not kept for all the small ones after it.
void Arena::drop_large_blocks() {
  size_t keep = 0, kept = 0;
  while (keep < blocks_.size() && kept + blocks_[keep].size <= kKeptBytes) kept += blocks_[keep++].size;
  blocks_.resize(keep);
}

void encode_struct(Writer& w, const StructDesc& desc, const void* value, Handles& handles) {
  encode_body(w, desc, value, handles, false);
}

Status decode_struct(Reader& r, const StructDesc& desc, Arena& arena, void* out, Handles& handles) {
  return decode_body(r, desc, arena, out, handles, false);
}

Status decode_struct_into(Reader& r, const StructDesc& desc, void* out, Handles& handles) {
  return decode_into(r, desc, out, handles, false);
}

// -- commands ------------------------------------------------------------------


Expected encode_args(Writer& w, const CommandDesc& cmd, const void* args, GuestHandles& handles) {
  Expected expected;
  for (const MemberDesc& m : cmd.fields().subspan(encode_flat(w, cmd, args, handles))) {
    const std::byte* field = at(args, m.offset);
    if (m.kind < Kind::kOutScalar) {
      encode_member(w, nullptr, m, args, handles, false);
      continue;
    }
    auto* p = load<std::byte*>(field);
    const uint64_t n = p ? elements(m, args) : 0;
    if (m.kind == Kind::kOutHandles) {
      w.put(n);
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t made = handles.create(m.object_type, m.dispatchable);
        store(p + i * 8, made);
        expected.created.push_back(made);
        w.put(handles.to_wire(m.object_type, m.dispatchable, made));
      }
      continue;
    }
    w.put(uint32_t{p != nullptr});
    if (!p) {
      if (m.kind == Kind::kOutArray) expected.room.push_back(0);
      continue;
    }
    if (m.kind == Kind::kOutScalar) {
      put_scalars(w, p, m.size, 1);
      continue;
    }
    w.put(n);
    expected.room.push_back(n);
    if (m.elem == Elem::kStruct && m.type->stype) {
      for (uint64_t i = 0; i < n; ++i)
        encode_shape(w, *m.type, static_cast<const VkBaseOutStructure*>(static_cast<void*>(p + i * m.size))->pNext);
    }
  }
  return expected;
}

namespace {

// An output array the driver will fill, shaped as the guest's.
Status decode_out_array(Reader& r, const MemberDesc& m, Arena& a, std::byte* field, uint64_t* sent) {
  auto present = get_present(r);
  if (!present) return present.error();
  store<void*>(field, nullptr);
  if (!*present) return {};
  auto n = get_count(r, 0);
  if (!n) return n.error();
  auto mem = a.alloc(*n, m.size, r.offset());
  if (!mem) return mem.error();
  if (m.elem == Elem::kStruct && m.type->stype) {
    auto* items = static_cast<std::byte*>(*mem);
    for (uint64_t i = 0; i < *n; ++i) {
      auto* item = reinterpret_cast<VkBaseOutStructure*>(items + i * m.size);
      item->sType = m.type->stype;
      auto next = decode_chain(r, *m.type, a, nullptr);
      if (!next) return next.error();
      item->pNext = static_cast<VkBaseOutStructure*>(*next);
    }
  }
  *sent = *n;
  store(field, *mem);
  return {};
}

Status decode_out_handles(Reader& r, const MemberDesc& m, Arena& a, std::byte* field, uint64_t* sent,
                          std::vector<NewHandle>& created) {
  auto n = get_count(r, kHandleBytes);
  if (!n) return n.error();
  auto mem = a.alloc(*n, sizeof(uint64_t), r.offset());
  if (!mem) return mem.error();
  auto* slots = static_cast<uint64_t*>(*mem);
  for (uint64_t i = 0; i < *n; ++i) {
    const size_t where = r.offset();
    auto id = r.get<uint64_t>();
    if (!id) return id.error();
    if (*id == 0) return bad(m, "a new object named 0", where);
    created.push_back({m.object_type, *id, &slots[i]});
  }
  *sent = *n;
  store<void*>(field, *n ? slots : nullptr);
  return {};
}


}  // namespace

Status decode_args(Reader& r, const CommandDesc& cmd, Arena& arena, void* args, Handles& handles,
                   std::vector<NewHandle>& created) {
  const size_t start = r.offset();
  auto flat = decode_flat(r, cmd, args, handles);
  if (!flat) return flat.error();
  // Only the parameters after the flat ones can be pointers to count.
  const auto rest = cmd.fields().subspan(*flat);
  if (rest.empty()) return nothing_after(r);  // most vkCmd*: no counts to keep
  SentCounts sent(rest.size());
  static const StructDesc kNoOwner{"arguments", VkStructureType(0), 0, nullptr, 0, nullptr, 0};
  for (size_t i = 0; i < rest.size(); ++i) {
    const MemberDesc& m = rest[i];
    std::byte* field = at(args, m.offset);
    if (m.kind == Kind::kAllocator) {
      store<void*>(field, nullptr);
    } else if (m.kind == Kind::kOutScalar) {
      auto present = get_present(r);
      if (!present) return present.error();
      store<void*>(field, nullptr);
      if (!*present) continue;
      auto mem = arena.alloc(1, m.size, r.offset());
      if (!mem) return mem.error();
      WIRE_TRY(get_scalars(r, static_cast<std::byte*>(*mem), m.size, 1));
      store(field, *mem);
    } else if (m.kind == Kind::kOutArray) {
      WIRE_TRY(decode_out_array(r, m, arena, field, &sent[i]));
    } else if (m.kind == Kind::kOutHandles) {
      WIRE_TRY(decode_out_handles(r, m, arena, field, &sent[i], created));
    } else {
      WIRE_TRY(decode_member(r, kNoOwner, m, arena, args, handles, false, &sent[i]));
    }
  }
  WIRE_TRY(nothing_after(r));
  return check_counts(rest, sent.all(), args, start);
}

// A command ends padded with zeros to kAlign (Writer::end): a last
// parameter narrower than that (vkCmdSetLineStippleEXT's 16-bit pattern)
// is followed by its padding, and by nothing else.
Status internal::nothing_after(const Reader& r) {
  const std::span<const std::byte> left = r.unread();
  if (left.empty()) return {};
  const bool only_padding = left.size() < kAlign && (r.offset() + left.size()) % kAlign == 0 &&
                            std::all_of(left.begin(), left.end(), [](std::byte b) { return b == std::byte{0}; });
  if (!only_padding) return make_error(Errc::kBadLength, "bytes after the arguments", r.offset());
  return {};
}

void encode_reply(Writer& w, const CommandDesc& cmd, const void* args, uint64_t ret, Handles& handles) {
  if (cmd.ret != Ret::kVoid) w.put(ret);
  for (const MemberDesc& m : cmd.fields()) {
    if (m.kind != Kind::kOutScalar && m.kind != Kind::kOutArray) continue;
    auto* p = load<const std::byte*>(at(args, m.offset));
    if (m.kind == Kind::kOutScalar) {
      w.put(uint32_t{p != nullptr});
      if (p) put_scalars(w, p, m.size, 1);
    } else if (m.kind == Kind::kOutArray) {
      const uint64_t n = p ? elements(m, args) : 0;
      w.put(n);
      if (n) encode_elements(w, m, p, n, handles);
    }
  }
}

Status decode_reply(Reader& r, const CommandDesc& cmd, void* args, const Expected& expected, Handles& handles,
                    uint64_t* ret) {
  if (cmd.ret != Ret::kVoid) {
    auto v = r.get<uint64_t>();
    if (!v) return v.error();
    *ret = *v;
  }
  size_t out = 0;
  for (const MemberDesc& m : cmd.fields()) {
    if (m.kind != Kind::kOutScalar && m.kind != Kind::kOutArray) continue;
    auto* p = load<std::byte*>(at(args, m.offset));
    if (m.kind == Kind::kOutScalar) {
      auto present = get_present(r);
      if (!present) return present.error();
      if (*present && !p) return bad(m, "answered but not asked", r.offset());
      if (*present) WIRE_TRY(get_scalars(r, p, m.size, 1));
    } else if (m.kind == Kind::kOutArray) {
      const size_t where = r.offset();
      auto n = r.get<uint64_t>();
      if (!n) return n.error();
      const uint64_t room = out < expected.room.size() ? expected.room[out] : 0;
      ++out;
      if (*n > room) return bad(m, std::to_string(*n) + " elements answered, room for " + std::to_string(room), where);
      if (!*n) continue;
      if (m.elem == Elem::kScalar) {
        WIRE_TRY(get_block(r, p, *n * m.size));
      } else if (m.elem == Elem::kHandle) {
        WIRE_TRY(decode_handles(r, m, p, *n, handles));
      } else {
        for (uint64_t i = 0; i < *n; ++i) WIRE_TRY(decode_into(r, *m.type, p + i * m.size, handles, false));
      }
    }
  }
  return {};
}

}  // namespace wire::vk
