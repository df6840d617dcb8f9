#include "vk_hostile.h"

#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vk_prelude.h"
#include "wire/vk_codec.h"
#include "wire/vk_memory.h"

namespace fuzz::vk {
namespace {

using wire::vk::CommandDesc;
using wire::vk::Elem;
using wire::vk::Kind;
using wire::vk::MemberDesc;
using wire::vk::StructDesc;

// Arrays stay short: the hostility is in the values, not in the lengths
// (the decoder's own fuzz target sends lengths of every size).
constexpr uint64_t kMostElements = 16;
constexpr uint64_t kMostBytes = 1024;
constexpr int kDeepest = 5;  // nesting of structures behind pointers and chains

template <typename T, size_t N>
T pick(const T (&values)[N], Rng& rng) {
  return values[rng.below(N)];
}

constexpr uint64_t kEdges32[] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 63, 64, 65, 255, 256, 4095, 4096, 4097, 0xffff,
                                 0x10000, 1u << 28, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};
constexpr uint64_t kEdges64[] = {0, 1, 4, 16, 64, 256, 4092, 4095, 4096, 4097, 65532, 65535, 65536, 65537,
                                 uint64_t{1900} << 20, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000,
                                 uint64_t{1} << 62, uint64_t{1} << 63, ~uint64_t{0} - 7, ~uint64_t{0}};
constexpr uint64_t kSmallCounts[] = {0, 1, 1, 1, 2, 2, 3, 4, 8};
constexpr uint64_t kLayouts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1000001002, 1000117000, 1000241000, 0x7fffffff};
constexpr uint64_t kFormats[] = {0, 9, 37, 37, 37, 43, 44, 70, 98, 100, 109, 124, 126, 129, 130, 131, 147,
                                 157, 1000156000, 0x7fffffff};
constexpr uint64_t kAspects[] = {0, 1, 1, 1, 2, 4, 6, 7, 8, 0x10, 0x80, 0x7fffffff};
constexpr uint64_t kDescriptorTypes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1000138000, 1000351000, 0x7fffffff};
constexpr uint64_t kIndexTypes[] = {0, 1, 1000265000, 1000165000, 2, 0x7fffffff};
constexpr std::string_view kStrings[] = {"main", "", "VK_KHR_swapchain", "VK_LAYER_KHRONOS_validation",
                                         "VK_EXT_external_memory_host", "x"};

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}
bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

void write_uint(std::byte* p, uint32_t size, uint64_t v) {
  switch (size) {
    case 1: { const uint8_t x = static_cast<uint8_t>(v); std::memcpy(p, &x, 1); break; }
    case 2: { const uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); break; }
    case 4: { const uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
    default: std::memcpy(p, &v, sizeof v); break;
  }
}

uint64_t read_uint(const std::byte* p, uint32_t size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size <= 8 ? size : 8);  // little-endian
  return v;
}

// Offsets and sizes a real program would use with the prelude's objects:
// inside them, at their ends, a little past them.
uint64_t near_the_objects(Rng& rng) {
  constexpr uint64_t kEnds[] = {kSmallBufferBytes, kLargeBufferBytes, kImageSize, kImageMips, kImageLayers,
                                kQueries, kPushConstantBytes};
  const uint64_t end = pick(kEnds, rng);
  switch (rng.below(4)) {
    case 0: return end;
    case 1: return end - 1 - rng.below(static_cast<uint32_t>(end > 16 ? 16 : end));
    case 2: return end + rng.below(17);
    default: return rng.below(static_cast<uint32_t>(end + 1)) & ~uint64_t{3};
  }
}

// A value for a scalar member, by what its name says it is.
uint64_t scalar_for(const MemberDesc& m, Rng& rng) {
  const std::string_view name = m.name;
  if (rng.percent(5)) return rng.next() | (m.size == 8 ? uint64_t{rng.next()} << 32 : 0);
  if (ends_with(name, "Layout")) return pick(kLayouts, rng);
  if (has(name, "ormat")) return pick(kFormats, rng);
  if (has(name, "spectMask")) return pick(kAspects, rng);
  if (name == "descriptorType") return pick(kDescriptorTypes, rng);
  if (name == "indexType") return pick(kIndexTypes, rng);
  if (ends_with(name, "Count") && rng.percent(70)) return pick(kSmallCounts, rng);
  if (rng.percent(45)) return near_the_objects(rng);
  return m.size == 8 ? pick(kEdges64, rng) : pick(kEdges32, rng);
}

// The prelude's objects by type, for handles that name something real.
const std::vector<uint64_t>& prelude_ids(VkObjectType type) {
  static const auto by_type = [] {
    std::map<VkObjectType, std::vector<uint64_t>> m;
    for (const PreludeObject& o : prelude_objects()) m[o.type].push_back(o.id);
    return m;
  }();
  static const std::vector<uint64_t> none;
  auto it = by_type.find(type);
  return it == by_type.end() ? none : it->second;
}

uint64_t handle_for(VkObjectType type, Rng& rng) {
  const auto& ids = prelude_ids(type);
  const uint32_t roll = rng.below(100);
  if (roll < 85 && !ids.empty()) return ids[rng.below(static_cast<uint32_t>(ids.size()))];
  if (roll < 91) return 0;
  if (roll < 97) {  // an object of another type
    auto all = prelude_objects();
    return all[rng.below(static_cast<uint32_t>(all.size()))].id;
  }
  return kFirstPreludeId + 64 + rng.below(64);  // never made
}

// The member of `fields` whose value `counted`'s length follows, or -1 for
// none there (a fixed length, or one read through another pointer). Found
// by trying two values on `owner` (each restored), once per member: vk.xml
// gives lengths as expressions ("codeSize / 4", "(rasterizationSamples +
// 31) / 32") that only the generated count functions evaluate.
int count_member(std::span<const MemberDesc> fields, const MemberDesc& counted, std::byte* owner) {
  static std::unordered_map<const MemberDesc*, int> found;
  if (auto it = found.find(&counted); it != found.end()) return it->second;
  int index = -1;
  for (size_t i = 0; i < fields.size() && index < 0; ++i) {
    const MemberDesc& c = fields[i];
    std::byte* value = nullptr;
    if (c.kind == Kind::kScalar && c.fixed == 1 && c.size <= 8) value = owner + c.offset;
    if (c.kind == Kind::kOutScalar && c.size <= 8) std::memcpy(&value, owner + c.offset, sizeof value);
    if (!value) continue;
    const uint64_t kept = read_uint(value, c.size);
    write_uint(value, c.size, 4);
    const uint64_t a = counted.count(owner);
    write_uint(value, c.size, 400);
    const uint64_t b = counted.count(owner);
    write_uint(value, c.size, kept);
    if (a != b) index = static_cast<int>(i);
  }
  found[&counted] = index;
  return index;
}

bool is_pointer(Kind k) {
  return k == Kind::kString || k == Kind::kStrings || k == Kind::kArray || k == Kind::kBytes ||
         k == Kind::kOutArray || k == Kind::kOutHandles;
}

uint64_t most_elements(const MemberDesc& m) {
  return m.kind == Kind::kBytes || (m.kind == Kind::kOutArray && m.elem == Elem::kScalar && m.size == 1)
             ? kMostBytes
             : kMostElements;
}

// Fills argument records and structures, keeping the memory they point at
// until the command is encoded.
class Filler {
 public:
  explicit Filler(Rng& rng) : rng_(rng) {}

  void fill_params(const CommandDesc& cmd, std::byte* args) { fill_members(cmd.fields(), nullptr, args, 0); }

 private:
  std::byte* alloc(uint64_t bytes) {
    blocks_.push_back(std::make_unique<std::byte[]>(bytes ? bytes : 1));  // zeroed
    return blocks_.back().get();
  }

  template <typename T>
  void store(std::byte* field, T value) {
    std::memcpy(field, &value, sizeof value);
  }

  void fill_struct(const StructDesc& d, std::byte* s, int depth) {
    fill_members(d.fields(), &d, s, depth);
  }

  // Values first, then what pointers point at: a pointer's length is read
  // from the values (and from structures earlier pointers lead to).
  void fill_members(std::span<const MemberDesc> fields, const StructDesc* d, std::byte* s, int depth) {
    for (const MemberDesc& m : fields) fill_value(m, d, s, depth);
    for (const MemberDesc& m : fields)
      if (is_pointer(m.kind)) fill_pointer(fields, m, s, depth);
  }

  void fill_value(const MemberDesc& m, const StructDesc* d, std::byte* s, int depth) {
    std::byte* field = s + m.offset;
    switch (m.kind) {
      case Kind::kScalar:
        if (d && std::string_view(m.name) == "sType") {
          write_uint(field, m.size, static_cast<uint32_t>(d->stype));
          break;
        }
        for (uint32_t i = 0; i < m.fixed; ++i) write_uint(field + i * m.size, m.size, scalar_for(m, rng_));
        break;
      case Kind::kHandle:
        for (uint32_t i = 0; i < m.fixed; ++i) store(field + i * 8, handle_for(m.object_type, rng_));
        break;
      case Kind::kStruct:
        for (uint32_t i = 0; i < m.fixed; ++i) fill_struct(*m.type, field + i * m.size, depth + 1);
        break;
      case Kind::kPNext:
        if (d) store(field, chain_item(*d, depth));
        break;
      case Kind::kOutScalar: {
        std::byte* value = alloc(8);
        write_uint(value, m.size, pick(kSmallCounts, rng_));
        store(field, value);
        break;
      }
      default:
        break;  // pointers: fill_pointer; allocators stay null
    }
  }

  // Now and then one structure the codec carries in `d`'s chain.
  std::byte* chain_item(const StructDesc& d, int depth) {
    if (d.next_count == 0 || depth >= kDeepest || !rng_.percent(15)) return nullptr;
    const StructDesc* item = wire::vk::struct_by_stype(d.next[rng_.below(d.next_count)]);
    if (!item) return nullptr;
    std::byte* s = alloc(item->size);
    fill_struct(*item, s, depth + 1);
    std::memset(s + offsetof(VkBaseOutStructure, pNext), 0, sizeof(void*));
    return s;
  }

  // A pointer's length, made short where it follows a member of the same
  // record that no earlier pointer has used; 0 when it stays too long.
  uint64_t bounded_length(std::span<const MemberDesc> fields, const MemberDesc& m, std::byte* s) {
    if (!m.count) return 1;
    uint64_t n = m.count(s);
    if (n <= most_elements(m)) {
      note_used(fields, m, s);
      return n;
    }
    const int c = count_member(fields, m, s);
    if (c < 0 || used_.count(s + fields[c].offset)) return UINT64_MAX;
    const MemberDesc& counter = fields[c];
    std::byte* value = s + counter.offset;
    if (counter.kind == Kind::kOutScalar) std::memcpy(&value, s + counter.offset, sizeof value);
    const uint64_t scale = ends_with(counter.name, "Size") ? 4 : 1;
    for (int tries = 0; tries < 4 && n > most_elements(m); ++tries) {
      write_uint(value, counter.size, pick(kSmallCounts, rng_) * scale);
      n = m.count(s);
    }
    if (n > most_elements(m)) {
      write_uint(value, counter.size, 0);
      n = m.count(s);
    }
    used_.insert(s + counter.offset);
    return n <= most_elements(m) ? n : UINT64_MAX;
  }

  void note_used(std::span<const MemberDesc> fields, const MemberDesc& m, std::byte* s) {
    const int c = count_member(fields, m, s);
    if (c >= 0) used_.insert(s + fields[c].offset);
  }

  void fill_pointer(std::span<const MemberDesc> fields, const MemberDesc& m, std::byte* s, int depth) {
    std::byte* field = s + m.offset;
    const uint64_t n = bounded_length(fields, m, s);
    const bool leave_null = n == UINT64_MAX || depth >= kDeepest || (m.optional && rng_.percent(8));
    if (leave_null) {
      store(field, static_cast<void*>(nullptr));
      return;
    }
    switch (m.kind) {
      case Kind::kString: {
        const std::string_view text = pick(kStrings, rng_);
        std::byte* p = alloc(text.size() + 1);
        std::memcpy(p, text.data(), text.size());
        store(field, p);
        break;
      }
      case Kind::kStrings: {
        std::byte* p = alloc(n * sizeof(char*));
        for (uint64_t i = 0; i < n; ++i) {
          const std::string_view text = pick(kStrings, rng_);
          std::byte* t = alloc(text.size() + 1);
          std::memcpy(t, text.data(), text.size());
          store(p + i * sizeof(char*), t);
        }
        store(field, p);
        break;
      }
      case Kind::kBytes:
      case Kind::kOutArray:
      case Kind::kOutHandles:
      case Kind::kArray:
        store(field, elements(m, n, depth));
        break;
      default:
        break;
    }
  }

  std::byte* elements(const MemberDesc& m, uint64_t n, int depth) {
    const uint32_t size = m.kind == Kind::kOutHandles ? 8 : m.size;
    std::byte* p = alloc(n * size);
    if (m.kind == Kind::kOutHandles) return p;
    for (uint64_t i = 0; i < n; ++i) {
      std::byte* e = p + i * size;
      if (m.kind == Kind::kBytes) {
        *e = static_cast<std::byte>(rng_.percent(50) ? rng_.below(4) : rng_.next());
      } else if (m.elem == Elem::kStruct && m.kind == Kind::kOutArray) {
        write_uint(e, 4, static_cast<uint32_t>(m.type->stype));  // a shape: its sType only
      } else if (m.elem == Elem::kStruct) {
        fill_struct(*m.type, e, depth + 1);
      } else if (m.elem == Elem::kHandle) {
        store(e, handle_for(m.object_type, rng_));
      } else if (m.kind == Kind::kArray) {
        write_uint(e, size, scalar_for(m, rng_));
      }
    }
    return p;
  }

  Rng& rng_;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::set<const std::byte*> used_;  // count members a pointer's length already follows
};

// The commands the mutator picks from: commands recorded into a command
// buffer twice as often as the rest, where most of the host's range checks
// are.
const std::vector<const CommandDesc*>& chosen_commands() {
  static const auto list = [] {
    std::vector<const CommandDesc*> out;
    for (const CommandDesc* c : wire::vk::command_descs()) {
      out.push_back(c);
      if (c->recorded.scope != wire::vk::RenderPassScope::kNone) out.push_back(c);
    }
    return out;
  }();
  return list;
}

Command encode(const CommandDesc& cmd, const void* args, std::span<const uint64_t> made, uint64_t next_id) {
  WireIds ids(made, next_id);
  wire::Writer w;
  const size_t at = w.begin(cmd.opcode);
  wire::vk::encode_args(w, cmd, args, ids);
  w.end(at);
  auto bytes = w.bytes().subspan(sizeof(wire::CommandHeader));
  return {cmd.opcode, std::vector<std::byte>(bytes.begin(), bytes.end())};
}

// Ids for objects a generated command makes: past the prelude's, spread so
// that two commands of one input seldom choose the same.
uint64_t new_ids(Rng& rng) { return kFirstPreludeId + 0x10000 + uint64_t{rng.below(4096)} * 16; }

// A value the mutator may change: where it is in a decoded record, and
// what it is.
struct Leaf {
  std::byte* at;
  const MemberDesc* member;
};

class LeafFinder {
 public:
  explicit LeafFinder(std::vector<Leaf>& out) : out_(out) {}

  void walk(std::span<const MemberDesc> fields, const StructDesc* d, std::byte* s, int depth) {
    if (depth > kDeepest) return;
    for (size_t i = 0; i < fields.size(); ++i) {
      const MemberDesc& m = fields[i];
      std::byte* field = s + m.offset;
      switch (m.kind) {
        case Kind::kScalar:
          if ((d && std::string_view(m.name) == "sType") || counts_a_pointer(fields, i, s)) break;
          for (uint32_t k = 0; k < m.fixed; ++k) out_.push_back({field + k * m.size, &m});
          break;
        case Kind::kHandle:
          for (uint32_t k = 0; k < m.fixed; ++k) out_.push_back({field + k * 8, &m});
          break;
        case Kind::kStruct:
          for (uint32_t k = 0; k < m.fixed; ++k) walk(m.type->fields(), m.type, field + k * m.size, depth + 1);
          break;
        case Kind::kPNext:
          walk_chain(field, depth);
          break;
        case Kind::kArray:
          walk_array(m, field, m.count ? m.count(s) : 1, depth);
          break;
        default:
          break;
      }
    }
  }

 private:
  bool counts_a_pointer(std::span<const MemberDesc> fields, size_t i, std::byte* s) {
    for (const MemberDesc& m : fields)
      if (is_pointer(m.kind) && m.count && count_member(fields, m, s) == static_cast<int>(i)) return true;
    return false;
  }

  void walk_chain(std::byte* field, int depth) {
    std::byte* item = nullptr;
    std::memcpy(&item, field, sizeof item);
    for (int i = 0; item && i < 8; ++i) {
      VkStructureType stype{};
      std::memcpy(&stype, item, sizeof stype);
      if (const StructDesc* d = wire::vk::struct_by_stype(stype)) walk(d->fields(), d, item, depth + 1);
      std::memcpy(&item, item + offsetof(VkBaseOutStructure, pNext), sizeof item);
    }
  }

  void walk_array(const MemberDesc& m, std::byte* field, uint64_t n, int depth) {
    std::byte* p = nullptr;
    std::memcpy(&p, field, sizeof p);
    if (!p) return;
    for (uint64_t k = 0; k < n && k < kMostElements; ++k) {
      std::byte* e = p + k * m.size;
      if (m.elem == Elem::kStruct)
        walk(m.type->fields(), m.type, e, depth + 1);
      else
        out_.push_back({e, &m});
    }
  }

  std::vector<Leaf>& out_;
};

// How many elements each of a command's output arrays holds, by its counts.
std::vector<uint64_t> out_counts(const CommandDesc& cmd, const std::byte* record) {
  std::vector<uint64_t> counts;
  for (const MemberDesc& m : cmd.fields())
    if (m.kind == Kind::kOutArray || m.kind == Kind::kOutHandles) counts.push_back(m.count ? m.count(record) : 1);
  return counts;
}

}  // namespace

Command hostile_vk_command(Rng& rng) {
  const auto& commands = chosen_commands();
  const CommandDesc& cmd = *commands[rng.below(static_cast<uint32_t>(commands.size()))];
  auto args = std::make_unique<std::byte[]>(cmd.args_size);
  Filler filler(rng);
  filler.fill_params(cmd, args.get());
  return encode(cmd, args.get(), {}, new_ids(rng));
}

bool change_vk_argument(Command& c, Rng& rng) {
  const CommandDesc* cmd = wire::vk::command_desc(c.opcode);
  if (!cmd) return false;
  wire::vk::Arena arena;
  auto args = arena.alloc(1, cmd->args_size, 0);
  if (!args) return false;
  WireIds ids;
  std::vector<wire::vk::NewHandle> created;
  wire::Reader r(c.payload, 0);
  if (!wire::vk::decode_args(r, *cmd, arena, *args, ids, created)) return false;
  auto* record = static_cast<std::byte*>(*args);
  std::vector<Leaf> leaves;
  LeafFinder(leaves).walk(cmd->fields(), nullptr, record, 0);
  if (leaves.empty()) return false;
  const Leaf& leaf = leaves[rng.below(static_cast<uint32_t>(leaves.size()))];
  const std::vector<uint64_t> room = out_counts(*cmd, record);
  if (leaf.member->elem == Elem::kHandle || leaf.member->kind == Kind::kHandle)
    write_uint(leaf.at, 8, handle_for(leaf.member->object_type, rng));
  else
    write_uint(leaf.at, leaf.member->size, scalar_for(*leaf.member, rng));
  // The encoder writes the program's new handles into arrays decoded at
  // their old counts: a count grown past them is left alone.
  const std::vector<uint64_t> wanted = out_counts(*cmd, record);
  for (size_t i = 0; i < room.size(); ++i)
    if (wanted[i] > room[i]) return false;
  std::vector<uint64_t> made;
  for (const auto& n : created) made.push_back(n.id);
  c = encode(*cmd, record, made, new_ids(rng));
  return true;
}

Command hostile_memory_command(Rng& rng) {
  using wire::vk::MemoryOp;
  const bool write = rng.percent(50);
  const MemberDesc offset_like{.name = "offset", .size = 8};
  wire::vk::MemoryRange range{handle_for(VK_OBJECT_TYPE_DEVICE_MEMORY, rng), scalar_for(offset_like, rng),
                              rng.percent(50) ? rng.below(4097) : scalar_for(offset_like, rng)};
  wire::Writer w;
  const size_t at = w.begin(static_cast<uint32_t>(write ? MemoryOp::kWriteMemory : MemoryOp::kReadMemory));
  w.put(range);
  if (write) {
    // The bytes as long as the range says, or (now and then) not.
    uint64_t n = range.size <= kMostBytes * 64 ? range.size : rng.below(4097);
    if (rng.percent(10)) n = rng.below(64);
    const std::vector<std::byte> bytes(n, std::byte{0x5a});
    w.put_data(bytes.data(), bytes.size());
  }
  w.end(at);
  auto bytes = w.bytes().subspan(sizeof(wire::CommandHeader));
  return {static_cast<uint32_t>(write ? MemoryOp::kWriteMemory : MemoryOp::kReadMemory),
          std::vector<std::byte>(bytes.begin(), bytes.end())};
}

}  // namespace fuzz::vk
