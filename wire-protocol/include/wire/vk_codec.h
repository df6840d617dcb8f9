// Vulkan on the wire: one codec driven by generated descriptions of every
// travelling structure and command (vk_tables.cpp, from vk.xml).
//
// The guest encodes a command's argument record (inputs, and the shape of
// what it wants back); the host decodes it into memory of its own with its
// own handles, checking every handle, count and pNext structure, calls its
// driver, and encodes the outputs; the guest writes them into the program's
// memory. docs/wire-format.md, "Vulkan commands", gives the layout.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include <vulkan/vulkan.h>

#include "wire/reader.h"
#include "wire/result.h"
#include "wire/writer.h"

namespace wire::vk {

enum class Kind : uint8_t {
  kScalar,      // `fixed` values of `size` bytes
  kHandle,      // `fixed` handles: 64-bit ids on the wire
  kStruct,      // `fixed` nested structures
  kPNext,       // the extension chain
  kString,      // const char*, null-terminated
  kStrings,     // const char* const*, count() strings
  kArray,       // a pointer to count() elements (one when count is null)
  kBytes,       // a pointer to count() bytes
  // Command parameters only.
  kAllocator,   // host memory is the host's own: never travels
  kOutScalar,   // T*: the program's value goes, the driver's comes back
  kOutArray,    // T* of count() elements (one when count is null) written by the driver
  kOutHandles,  // new objects: ids the guest chose
};

enum class Elem : uint8_t { kScalar, kHandle, kStruct };

struct StructDesc;

struct MemberDesc {
  const char* name;
  uint32_t offset;  // in the C structure or argument record
  Kind kind;
  Elem elem;        // what a pointer kind points at
  bool optional;    // a pointer may be null, a handle VK_NULL_HANDLE
  bool dispatchable;
  uint32_t size;    // one element's bytes
  uint32_t fixed;   // elements of a fixed-size array, else 1
  VkObjectType object_type;
  const StructDesc* type;                 // structures
  uint64_t (*count)(const void* owner);   // pointer kinds: elements, from the owner
  bool (*known)(uint32_t value);          // enumerated scalars: a value vk.xml gives the type; bitmasks: its bits only
};

struct StructDesc {
  const char* name;
  VkStructureType stype;  // 0 for structures without one
  uint32_t size;
  const MemberDesc* members;
  uint32_t member_count;
  const VkStructureType* next;  // what its pNext chain may hold (few: searched in order)
  uint32_t next_count;

  std::span<const MemberDesc> fields() const { return {members, member_count}; }
  bool may_extend_with(VkStructureType t) const;
};

enum class Ret : uint8_t { kVoid, kResult, kValue };

// Where a command-buffer command may be recorded (vk.xml's renderpass and
// cmdbufferlevel); kNone for every command that is not recorded.
enum class RenderPassScope : uint8_t { kNone, kInside, kOutside, kBoth };
enum class Pipeline : uint8_t { kNone, kGraphics, kCompute };  // the one a draw or dispatch runs
struct Recorded {
  RenderPassScope scope = RenderPassScope::kNone;
  bool primary = false;
  bool secondary = false;
  Pipeline runs = Pipeline::kNone;
};

struct CommandDesc {
  const char* name;
  uint32_t opcode;
  uint32_t args_size;
  const MemberDesc* params;
  uint32_t param_count;
  Ret ret;
  bool synchronous;  // the guest waits for outputs or a result
  Recorded recorded;
  bool ends_objects;  // a vkDestroy* or vkFree* command
  bool ranges_checked;  // the host checks its ranges against what they name (vk-annotations.toml [ranges])
  const char* device_extension;  // the device extension it comes from; null for core commands
  const char* instance_extension;  // the instance extension it comes from; null for core commands

  std::span<const MemberDesc> fields() const { return {params, param_count}; }
};

struct StypeEntry {
  VkStructureType stype;
  const StructDesc* desc;
};

// Extensions whose commands and structures are carried (vk-annotations.toml).
struct CarriedExtension {
  const char* name;
  bool instance;  // else a device extension
};

// A member as the number the other side wrote. An enum's bytes are read as
// its underlying integer: a value no enumerator has (a hostile guest's
// rasterizationSamples or level) is a number like any other, not undefined
// behaviour. Counts, and the host's own looks at enum members, go through it.
template <typename T>
uint64_t as_number(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    std::underlying_type_t<T> raw;
    std::memcpy(&raw, &v, sizeof raw);
    return static_cast<uint64_t>(raw);
  } else {
    return static_cast<uint64_t>(v);
  }
}

// Generated tables.
std::span<const CarriedExtension> carried_extensions();
std::span<const StypeEntry> structs_by_stype();
std::span<const CommandDesc* const> command_descs();
const StructDesc* plain_struct(std::string_view name);  // structures without sType
const StructDesc* struct_by_stype(VkStructureType stype);
const CommandDesc* command_desc(uint32_t opcode);

// Something of every generated command, in a table indexed by opcode (they
// are dense from kFirstVkOpcode): `make(desc)` gives each its entry, and
// opcodes without a command keep T's default.
template <typename T, typename Make>
std::vector<T> per_command(Make make) {
  std::vector<T> table;
  for (const CommandDesc* c : command_descs()) {
    const size_t i = c->opcode - kFirstVkOpcode;
    if (i >= table.size()) table.resize(i + 1);
    table[i] = make(*c);
  }
  return table;
}

// The entry of `opcode` in a per_command table, or null.
template <typename T>
const T* entry_of(const std::vector<T>& table, uint32_t opcode) {
  const size_t i = opcode - size_t{kFirstVkOpcode};
  return opcode >= kFirstVkOpcode && i < table.size() ? &table[i] : nullptr;
}

// How one side names handles. A guest's dispatchable handle is a pointer to
// its object, its other handles are the ids themselves; a host's are the
// driver's. Ids are 64-bit, 0 is VK_NULL_HANDLE.
class Handles {
 public:
  virtual ~Handles() = default;
  virtual uint64_t to_wire(VkObjectType type, bool dispatchable, uint64_t handle) = 0;
  virtual Result<uint64_t> from_wire(VkObjectType type, bool dispatchable, uint64_t id) = 0;
  // Whether what is decoded comes from a guest, to be judged before a
  // driver follows it (the host): a structure's required handle must not
  // be null, and an enumerated member must hold a value of its type. What a
  // driver answered (the guest) is taken as it is.
  virtual bool from_guest() const { return false; }
};

// The guest's side also makes handles for objects a command creates.
class GuestHandles : public Handles {
 public:
  virtual uint64_t create(VkObjectType type, bool dispatchable) = 0;
  virtual void discard(VkObjectType type, bool dispatchable, uint64_t handle) = 0;
};

// Zeroed memory for a decoded command, all given back together; bounded so
// a guest cannot make the host allocate without end. Its blocks are kept
// from one command to the next (up to 1 MiB), so a command costs no
// allocation of the heap.
class Arena {
 public:
  explicit Arena(size_t limit = 64u << 20) : limit_(limit) {}
  Result<void*> alloc(uint64_t count, uint64_t size, size_t at) {
    // Most are one small record with room left in the block: here, inline.
    if (count == 1 && size <= kInlineBytes && current_ < blocks_.size()) {
      const size_t bytes = round_up(size ? size : 1);
      if (blocks_[current_].size - offset_ >= bytes && bytes <= limit_ - std::min(limit_, used_)) {
        std::byte* p = blocks_[current_].bytes.get() + offset_;
        // A few 16-byte stores: memset of a size unknown here may become a
        // string instruction whose start-up costs more than the record.
        for (size_t i = 0; i < bytes; i += kAlignment) std::memset(p + i, 0, kAlignment);
        offset_ += bytes;
        used_ += bytes;
        return static_cast<void*>(p);
      }
    }
    return alloc_any(count, size, at);
  }
  void reset() {
    current_ = 0;
    offset_ = 0;
    used_ = 0;
    if (blocks_.size() > 1 || (!blocks_.empty() && blocks_[0].size > kKeptBytes)) drop_large_blocks();
  }
  size_t used() const { return used_; }

 private:
  static constexpr size_t kAlignment = alignof(std::max_align_t);
  static constexpr size_t kInlineBytes = 256;
  static size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) & ~(kAlignment - 1); }
  static constexpr size_t kKeptBytes = 1u << 20;
  Result<void*> alloc_any(uint64_t count, uint64_t size, size_t at);
  void drop_large_blocks();

  struct Block {
    std::unique_ptr<std::byte[]> bytes;
    size_t size;
  };
  std::vector<Block> blocks_;
  size_t current_ = 0;  // the block allocations come from
  size_t offset_ = 0;   // in it
  size_t limit_;
  size_t used_ = 0;
};

// A handle the host is to record once the driver made it.
struct NewHandle {
  VkObjectType type;
  uint64_t id;
  uint64_t* slot;  // where the driver writes it
};

// Guest: what an encoded command expects back (elements room per output array).
struct Expected {
  std::vector<uint64_t> room;
  std::vector<uint64_t> created;  // handles made for the command, in order
};

// Sizes a driver reads that a structure's own counts do not bound (offsets
// into a blob, bytes against words): checked after its counts.
Status check_struct_sizes(const StructDesc& desc, const void* value);

// The parameter whose object a vkDestroy*/vkFree* command ends (a handle,
// or an array of them), or null for other commands.
const MemberDesc* destroyed_param(const CommandDesc& cmd);

// Vulkan's count-then-fill answer from a list: the count alone when `out`
// is null, else as many as fit, VK_INCOMPLETE when not all did.
template <typename T>
VkResult answer_enumeration(std::span<const T> list, uint32_t* count, T* out) {
  if (!out) {
    *count = static_cast<uint32_t>(list.size());
    return VK_SUCCESS;
  }
  const uint32_t n = *count < list.size() ? *count : static_cast<uint32_t>(list.size());
  for (uint32_t i = 0; i < n; ++i) out[i] = list[i];
  *count = n;
  return n < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

// Guest.
Expected encode_args(Writer& w, const CommandDesc& cmd, const void* args, GuestHandles& handles);
Status decode_reply(Reader& r, const CommandDesc& cmd, void* args, const Expected& expected,
                    Handles& handles, uint64_t* ret);

// Host.
// Commands whose parameters are single values and handles, but for at most
// a last byte array that one of them counts (vkCmdDraw, vkCmdPushConstants):
// most of a frame's commands. decode_flat_command reads one as decode_args
// would, refusing what it refuses, without its walk over the parameters or
// an arena: it writes every field of `args`, and the byte array points
// into the payload (or its heap copy), which lives as long as the command.
bool is_flat_command(const CommandDesc& cmd);
Status decode_flat_command(Reader& r, const CommandDesc& cmd, void* args, Handles& handles);
// The same with the command's layout found beforehand (the host keeps it
// with the command's runner): flat_command gives it, or null for a command
// that is not flat.
struct FlatPrefix;
const FlatPrefix* flat_command(const CommandDesc& cmd);
Status decode_flat_command(Reader& r, const FlatPrefix& flat, void* args, Handles& handles);
Status decode_args(Reader& r, const CommandDesc& cmd, Arena& arena, void* args, Handles& handles,
                   std::vector<NewHandle>& created);
void encode_reply(Writer& w, const CommandDesc& cmd, const void* args, uint64_t ret, Handles& handles);

// One structure (the round-trip tests, and hand-written commands).
void encode_struct(Writer& w, const StructDesc& desc, const void* value, Handles& handles);
Status decode_struct(Reader& r, const StructDesc& desc, Arena& arena, void* out, Handles& handles);
// Writes a structure the other side filled into one the program gave,
// following the program's own pNext chain.
Status decode_struct_into(Reader& r, const StructDesc& desc, void* out, Handles& handles);

}  // namespace wire::vk
