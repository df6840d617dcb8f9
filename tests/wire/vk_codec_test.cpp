// The Vulkan codec over every generated description: each structure and
// each command round-trips, every shorter prefix of its bytes is refused
// cleanly, and hostile values (unknown structures, wrong counts, foreign
// handles) are refused.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wire/vk_codec.h"
#include "wire/vk_commands.h"

namespace {

using namespace wire::vk;

// Both sides at once: ids are the handles themselves, made in sequence;
// an id marked foreign is refused as another guest's would be.
class TestHandles : public GuestHandles {
 public:
  uint64_t to_wire(VkObjectType, bool, uint64_t h) override { return h; }
  wire::Result<uint64_t> from_wire(VkObjectType, bool, uint64_t id) override {
    if (id == kForeign) return wire::make_error(wire::Errc::kBadName, "not this guest's");
    return id;
  }
  uint64_t create(VkObjectType, bool) override { return next_++; }
  void discard(VkObjectType, bool, uint64_t) override {}
  static constexpr uint64_t kForeign = 0xdead;

 private:
  uint64_t next_ = 0x1000;
};

// Fills a structure or argument record from its description: values small
// enough that counts stay small, different per member; every pointer gets
// as many elements as its owner's counts say.
class Filler {
 public:
  // Values first, then what points elsewhere: a count may follow the array
  // it sizes (vkCmdDrawMultiEXT's stride comes last).
  void fill(std::span<const MemberDesc> members, void* owner, int depth) {
    for (bool values : {true, false}) {
      int salt = 0;
      for (const MemberDesc& m : members) {
        ++salt;
        const bool value = m.kind == Kind::kScalar || m.kind == Kind::kHandle || m.kind == Kind::kStruct;
        if (value == values) fill_member(m, static_cast<std::byte*>(owner), salt, depth);
      }
    }
  }
  void fill_struct(const StructDesc& d, void* s, int depth) {
    fill(d.fields(), s, depth);
    if (d.stype) std::memcpy(s, &d.stype, sizeof d.stype);
    keep_sizes_valid(d, s);
  }

 private:
  void* keep(size_t bytes) {
    store_.push_back(std::make_unique<std::byte[]>(bytes ? bytes : 1));
    return store_.back().get();
  }
  void fill_values(std::byte* p, uint32_t size, uint64_t n, int salt) {
    for (uint64_t i = 0; i < n; ++i) {
      std::memset(p + i * size, 0, size);
      p[i * size] = static_cast<std::byte>(1 + (salt + i) % 3);
    }
  }
  void fill_elements(const MemberDesc& m, std::byte* p, uint64_t n, int salt, int depth) {
    for (uint64_t i = 0; i < n; ++i) {
      if (m.elem == Elem::kStruct) fill_struct(*m.type, p + i * m.size, depth + 1);
      else if (m.elem == Elem::kHandle) store_handle(p + i * 8, 0x100 + salt + i);
      else fill_values(p + i * m.size, m.size, 1, salt + i);
    }
  }
  static void store_handle(std::byte* p, uint64_t v) { std::memcpy(p, &v, 8); }
  static uint64_t count(const MemberDesc& m, const void* owner) { return m.count ? m.count(owner) : 1; }

  void fill_member(const MemberDesc& m, std::byte* owner, int salt, int depth) {
    std::byte* field = owner + m.offset;
    switch (m.kind) {
      case Kind::kScalar:
        fill_values(field, m.size, m.fixed, salt);
        if (std::string_view(m.name) == "codeSize") {  // SPIR-V is whole words: one
          const size_t word = 4;
          std::memcpy(field, &word, sizeof word);
        }
        return;
      case Kind::kHandle:
        for (uint32_t i = 0; i < m.fixed; ++i) store_handle(field + i * 8, 0x100 + salt + i);
        return;
      case Kind::kStruct:
        for (uint32_t i = 0; i < m.fixed; ++i) fill_struct(*m.type, field + i * m.size, depth + 1);
        return;
      case Kind::kString: {
        auto* s = static_cast<char*>(keep(8));
        std::memcpy(s, "name", 5);
        return set(field, s);
      }
      case Kind::kStrings: {
        const uint64_t n = count(m, owner);
        auto** list = static_cast<const char**>(keep(n * sizeof(char*)));
        for (uint64_t i = 0; i < n; ++i) list[i] = "VK_KHR_x";
        return set(field, list);
      }
      case Kind::kArray:
      case Kind::kOutArray: {
        if (depth > 3 && m.optional) return set(field, nullptr);  // recursive structures end
        const uint64_t n = count(m, owner);
        auto* p = static_cast<std::byte*>(keep(n * m.size));
        if (m.kind == Kind::kArray) {
          fill_elements(m, p, n, salt, depth);
        } else if (m.elem == Elem::kStruct && m.type->stype) {
          for (uint64_t i = 0; i < n; ++i) std::memcpy(p + i * m.size, &m.type->stype, sizeof(VkStructureType));
        }
        return set(field, p);
      }
      case Kind::kBytes: {
        const uint64_t n = count(m, owner);
        auto* p = static_cast<std::byte*>(keep(n));
        fill_values(p, 1, n, salt);
        return set(field, p);
      }
      case Kind::kOutScalar: {
        auto* p = static_cast<std::byte*>(keep(m.size));
        fill_values(p, m.size, 1, salt);
        return set(field, p);
      }
      case Kind::kOutHandles:
        return set(field, keep(count(m, owner) * 8));
      case Kind::kPNext:
      case Kind::kAllocator:
        return set(field, nullptr);
    }
  }
  static void set(std::byte* field, const void* p) { std::memcpy(field, &p, sizeof p); }

  // The size rules check_struct_sizes holds (valid usage), kept by values
  // small enough to hold them (codeSize in fill_member, before pCode is made).
  static void keep_sizes_valid(const StructDesc& d, void* s) {
    if (std::string_view(d.name) == "VkSpecializationMapEntry") {
      auto& e = *static_cast<VkSpecializationMapEntry*>(s);
      e.offset = 0;
      e.size = 1;
    }
  }

  std::vector<std::unique_ptr<std::byte[]>> store_;
};

std::vector<const StructDesc*> all_structs() {
  std::vector<const StructDesc*> out;
  for (const StypeEntry& e : structs_by_stype()) out.push_back(e.desc);
  for (const char* name : {"VkExtent2D", "VkOffset3D", "VkPhysicalDeviceLimits", "VkPhysicalDeviceProperties",
                           "VkImageSubresourceRange", "VkAttachmentReference", "VkClearAttachment",
                           "VkSpecializationInfo"})
    out.push_back(plain_struct(name));
  return out;
}

std::vector<std::byte> encode(const StructDesc& d, const void* s, TestHandles& h) {
  wire::Writer w;
  encode_struct(w, d, s, h);
  return {w.bytes().begin(), w.bytes().end()};
}

TEST(VkCodec, TablesAreSortedAndComplete) {
  auto structs = structs_by_stype();
  ASSERT_GT(structs.size(), 200u);
  for (size_t i = 1; i < structs.size(); ++i) EXPECT_LT(structs[i - 1].stype, structs[i].stype);
  auto commands = command_descs();
  ASSERT_GT(commands.size(), 190u);
  for (size_t i = 1; i < commands.size(); ++i) EXPECT_LT(commands[i - 1]->opcode, commands[i]->opcode);
  EXPECT_EQ(struct_by_stype(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO)->size, sizeof(VkInstanceCreateInfo));
  EXPECT_TRUE(struct_by_stype(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)->may_extend_with(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES));
}

TEST(VkCodec, EveryStructureRoundTripsAndEveryPrefixIsRefused) {
  for (const StructDesc* d : all_structs()) {
    ASSERT_NE(d, nullptr);
    SCOPED_TRACE(d->name);
    Filler fill;
    std::vector<std::byte> value(d->size);
    fill.fill_struct(*d, value.data(), 0);
    TestHandles h;
    auto bytes = encode(*d, value.data(), h);

    Arena arena;
    std::vector<std::byte> decoded(d->size);
    wire::Reader r(bytes, 0);
    auto st = decode_struct(r, *d, arena, decoded.data(), h);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    EXPECT_EQ(r.remaining(), 0u);
    EXPECT_EQ(encode(*d, decoded.data(), h), bytes);  // the same contents, pointers followed

    for (size_t cut = 0; cut + wire::kAlign <= bytes.size(); cut += (cut < 256 ? 1 : 61)) {  // not the last padding
      Arena a2;
      std::vector<std::byte> out(d->size);
      wire::Reader shorter(std::span<const std::byte>(bytes).first(cut), 0);
      EXPECT_FALSE(decode_struct(shorter, *d, a2, out.data(), h).ok()) << "cut at " << cut;
    }
  }
}

// Guest encodes, host decodes and answers, guest writes the answer back:
// for every generated command.
TEST(VkCodec, EveryCommandRoundTripsAndEveryPrefixIsRefused) {
  for (const CommandDesc* c : command_descs()) {
    SCOPED_TRACE(c->name);
    Filler fill;
    std::vector<std::byte> args(c->args_size);
    fill.fill(c->fields(), args.data(), 0);
    TestHandles h;
    wire::Writer w;
    Expected expected = encode_args(w, *c, args.data(), h);
    std::vector<std::byte> bytes(w.bytes().begin(), w.bytes().end());

    Arena arena;
    std::vector<std::byte> host_args(c->args_size);
    std::vector<NewHandle> created;
    wire::Reader r(bytes, 0);
    auto st = decode_args(r, *c, arena, host_args.data(), h, created);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    EXPECT_EQ(created.size(), expected.created.size());

    wire::Writer reply;
    encode_reply(reply, *c, host_args.data(), VK_SUCCESS, h);
    uint64_t ret = 1;
    wire::Reader rr(reply.bytes(), 0);
    auto back = decode_reply(rr, *c, args.data(), expected, h, &ret);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    if (c->ret != Ret::kVoid) {
      EXPECT_EQ(ret, uint64_t{VK_SUCCESS});
    }

    for (size_t cut = 0; cut + wire::kAlign <= bytes.size(); cut += (cut < 256 ? 1 : 61)) {  // not the last padding
      Arena a2;
      std::vector<std::byte> out(c->args_size);
      std::vector<NewHandle> made;
      wire::Reader shorter(std::span<const std::byte>(bytes).first(cut), 0);
      EXPECT_FALSE(decode_args(shorter, *c, a2, out.data(), h, made).ok()) << "cut at " << cut;
    }
  }
}

TEST(VkCodec, ChainsCarryWhatTheyMayAndRefuseTheRest) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};  // cannot extend a device create info
  v13.pNext = &app;
  float priority = 1;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v13};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  const StructDesc& d = *struct_by_stype(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  TestHandles h;
  auto bytes = encode(d, &info, h);

  // The guest left the application info out: the host sees the features only.
  Arena arena;
  VkDeviceCreateInfo out{};
  wire::Reader r(bytes, 0);
  ASSERT_TRUE(decode_struct(r, d, arena, &out, h).ok());
  auto* next = static_cast<const VkPhysicalDeviceVulkan13Features*>(out.pNext);
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  EXPECT_EQ(next->dynamicRendering, VK_TRUE);
  EXPECT_EQ(next->pNext, nullptr);
  EXPECT_EQ(*out.pQueueCreateInfos->pQueuePriorities, 1.0f);

  // A hostile stream naming a structure the host does not carry, or one
  // that cannot extend this one, is refused.
  auto with_stype = [&](uint32_t stype) {
    auto b = bytes;
    const uint32_t was = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    for (size_t i = 0; i + 4 <= b.size(); i += 4)
      if (std::memcmp(&b[i], &was, 4) == 0) {
        std::memcpy(&b[i], &stype, 4);
        break;
      }
    Arena a2;
    VkDeviceCreateInfo o{};
    wire::Reader rr(b, 0);
    return decode_struct(rr, d, a2, &o, h);
  };
  EXPECT_FALSE(with_stype(0x7fff0001).ok());
  EXPECT_FALSE(with_stype(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO).ok());
}

// Sizes the driver reads beyond a structure's counts are held to what was sent.
TEST(VkCodec, SizesTheDriverReadsPastTheCountsAreRefused) {
  TestHandles h;
  auto decodes = [&](const StructDesc& d, const void* value) {
    auto bytes = encode(d, value, h);
    Arena arena;
    std::vector<std::byte> out(d.size);
    wire::Reader r(bytes, 0);
    return decode_struct(r, d, arena, out.data(), h).ok();
  };
  const uint32_t word = 0x07230203;
  VkShaderModuleCreateInfo shader{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  shader.pCode = &word;
  shader.codeSize = 4;
  const StructDesc& shader_desc = *struct_by_stype(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  EXPECT_TRUE(decodes(shader_desc, &shader));
  shader.codeSize = 6;  // one word travels, six bytes would be read
  EXPECT_FALSE(decodes(shader_desc, &shader));

  const uint64_t constant = 42;
  VkSpecializationMapEntry entry{0, 0, sizeof constant};
  VkSpecializationInfo spec{1, &entry, sizeof constant, &constant};
  const StructDesc& spec_desc = *plain_struct("VkSpecializationInfo");
  EXPECT_TRUE(decodes(spec_desc, &spec));
  entry.offset = 4;  // its last four bytes past pData
  EXPECT_FALSE(decodes(spec_desc, &spec));
}

// A count read from an enum member the guest set to a value no enumerator
// has (found by fuzz_decoder: rasterizationSamples of 0x91000000 sizes
// pSampleMask) is a number like any other; under UBSan its load was
// undefined behaviour.
TEST(VkCodec, CountsFromEnumsWithoutAnEnumeratorAreNumbers) {
  TestHandles h;
  VkPipelineMultisampleStateCreateInfo state{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  const uint32_t samples = 0x91000000;
  std::memcpy(&state.rasterizationSamples, &samples, sizeof samples);
  const StructDesc& desc = *struct_by_stype(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  auto bytes = encode(desc, &state, h);  // pSampleMask null: it may be
  Arena arena;
  VkPipelineMultisampleStateCreateInfo out{};
  wire::Reader r(bytes, 0);
  ASSERT_TRUE(decode_struct(r, desc, arena, &out, h).ok());
  uint32_t decoded = 0;
  std::memcpy(&decoded, &out.rasterizationSamples, sizeof decoded);
  EXPECT_EQ(decoded, samples);

  // One word of mask sent for 32 samples, then the samples changed on the
  // wire: millions of words would be read, and the decoder refuses it.
  const uint32_t mask = ~0u;
  const uint32_t thirty_two = 32;
  state.pSampleMask = &mask;
  std::memcpy(&state.rasterizationSamples, &thirty_two, sizeof thirty_two);
  auto one_word = encode(desc, &state, h);
  bool patched = false;
  for (size_t i = 0; i + 4 <= one_word.size() && !patched; i += 4)
    if (std::memcmp(&one_word[i], &thirty_two, 4) == 0) {
      std::memcpy(&one_word[i], &samples, 4);
      patched = true;
    }
  ASSERT_TRUE(patched);
  wire::Reader r2(one_word, 0);
  Arena a2;
  EXPECT_FALSE(decode_struct(r2, desc, a2, &out, h).ok());
}

TEST(VkCodec, ForeignHandlesAndImpossibleCountsAreRefused) {
  VkBufferCopy regions[2] = {{0, 0, 4}, {4, 8, 4}};
  TestHandles h;
  wire::Writer w;
  // vkCmdCopyBuffer(commandBuffer, src, dst, 2, regions) with a foreign buffer.
  const CommandDesc* copy = nullptr;
  for (const CommandDesc* d : command_descs())
    if (std::string(d->name) == "vkCmdCopyBuffer") copy = d;
  ASSERT_NE(copy, nullptr);
  struct {
    VkCommandBuffer cb;
    VkBuffer src, dst;
    uint32_t count;
    const VkBufferCopy* regions;
  } args{reinterpret_cast<VkCommandBuffer>(uint64_t{0x10}), reinterpret_cast<VkBuffer>(TestHandles::kForeign),
         reinterpret_cast<VkBuffer>(uint64_t{0x12}), 2, regions};
  ASSERT_EQ(copy->args_size, sizeof args);
  encode_args(w, *copy, &args, h);
  Arena arena;
  std::vector<std::byte> out(copy->args_size);
  std::vector<NewHandle> created;
  wire::Reader r(w.bytes(), 0);
  auto st = decode_args(r, *copy, arena, out.data(), h, created);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, wire::Errc::kBadName);

  // A count of 2^40 elements with a few bytes behind it.
  args.src = reinterpret_cast<VkBuffer>(uint64_t{0x11});
  wire::Writer w2;
  encode_args(w2, *copy, &args, h);
  std::vector<std::byte> bytes(w2.bytes().begin(), w2.bytes().end());
  const uint64_t two = 2, huge = uint64_t{1} << 40;
  for (size_t i = 0; i + 8 <= bytes.size(); i += 4)
    if (std::memcmp(&bytes[i], &two, 8) == 0) {
      std::memcpy(&bytes[i], &huge, 8);
      break;
    }
  wire::Reader r2(bytes, 0);
  Arena a2;
  EXPECT_FALSE(decode_args(r2, *copy, a2, out.data(), h, created).ok());
}

}  // namespace

// The flat commands (most of a frame's) decode the same by decode_flat_command
// as by decode_args, and are refused where it refuses them.
TEST(VkCodec, FlatCommandsDecodeAsEveryCommandDoes) {
  size_t flat = 0;
  for (const CommandDesc* c : command_descs()) {
    if (!is_flat_command(*c)) continue;
    SCOPED_TRACE(c->name);
    ++flat;
    Filler fill;
    std::vector<std::byte> args(c->args_size);
    fill.fill(c->fields(), args.data(), 0);
    TestHandles h;
    wire::Writer w;
    encode_args(w, *c, args.data(), h);
    std::vector<std::byte> bytes(w.bytes().begin(), w.bytes().end());

    Arena arena;
    std::vector<std::byte> generic(c->args_size), ours(c->args_size);
    std::vector<NewHandle> created;
    wire::Reader r1(bytes, 0), r2(bytes, 0);
    ASSERT_TRUE(decode_args(r1, *c, arena, generic.data(), h, created).ok());
    auto st = decode_flat_command(r2, *c, ours.data(), h);
    ASSERT_TRUE(st.ok()) << st.error().describe();
    for (const MemberDesc& m : c->fields()) {
      SCOPED_TRACE(m.name);
      if (m.kind != Kind::kBytes) {
        const size_t size = m.kind == Kind::kHandle ? 8 : m.size;
        EXPECT_EQ(std::memcmp(generic.data() + m.offset, ours.data() + m.offset, size), 0);
        continue;
      }
      const std::byte *a, *b;
      std::memcpy(&a, generic.data() + m.offset, sizeof a);
      std::memcpy(&b, ours.data() + m.offset, sizeof b);
      const uint64_t n = m.count(ours.data());
      ASSERT_EQ(a == nullptr, b == nullptr);
      if (n) {
        EXPECT_EQ(std::memcmp(a, b, n), 0);
      }
    }
    for (size_t cut = 0; cut + wire::kAlign <= bytes.size(); ++cut) {
      std::vector<std::byte> out(c->args_size);
      wire::Reader shorter(std::span<const std::byte>(bytes).first(cut), 0);
      EXPECT_FALSE(decode_flat_command(shorter, *c, out.data(), h).ok()) << "cut at " << cut;
    }
    std::vector<std::byte> longer = bytes;
    longer.resize(bytes.size() + wire::kAlign);
    wire::Reader after(longer, 0);
    std::vector<std::byte> out(c->args_size);
    EXPECT_FALSE(decode_flat_command(after, *c, out.data(), h).ok()) << "bytes after the arguments";
  }
  EXPECT_GT(flat, 50u);
  // vkCmdPushConstants' values must be as many bytes as its size says.
  const CommandDesc* push = command_desc(static_cast<uint32_t>(VkOp::vkCmdPushConstants));
  ASSERT_TRUE(push && is_flat_command(*push));
  const uint32_t values[4] = {1, 2, 3, 4};
  VkArgs_vkCmdPushConstants a{reinterpret_cast<VkCommandBuffer>(uint64_t{0x10}),
                              VkPipelineLayout(0x20),
                              VK_SHADER_STAGE_VERTEX_BIT,
                              0,
                              16,
                              values};
  TestHandles h;
  wire::Writer w;
  encode_args(w, *push, &a, h);
  std::vector<std::byte> bytes(w.bytes().begin(), w.bytes().end());
  VkArgs_vkCmdPushConstants decoded{};
  wire::Reader ok(bytes, 0);
  ASSERT_TRUE(decode_flat_command(ok, *push, &decoded, h).ok());
  EXPECT_EQ(std::memcmp(decoded.pValues, values, sizeof values), 0);
  // The wire's size (after two handles, the stages and the offset) says 12.
  const uint32_t fewer = 12;
  std::memcpy(bytes.data() + 2 * 8 + 2 * 4, &fewer, sizeof fewer);
  wire::Reader wrong(bytes, 0);
  EXPECT_FALSE(decode_flat_command(wrong, *push, &decoded, h).ok());
}

// The host refuses an extension's command where its instance or device was
// made without it: each command names the one it comes from, and a
// promoted command's core name names none.
TEST(VkCodec, CommandsNameTheExtensionTheyComeFrom) {
  auto desc = [](VkOp op) { return command_desc(static_cast<uint32_t>(op)); };
  const CommandDesc* surface = desc(VkOp::vkGetPhysicalDeviceSurfaceSupportKHR);
  ASSERT_TRUE(surface && surface->instance_extension);
  EXPECT_STREQ(surface->instance_extension, "VK_KHR_surface");
  EXPECT_EQ(surface->device_extension, nullptr);
  const CommandDesc* conditional = desc(VkOp::vkCmdBeginConditionalRenderingEXT);
  ASSERT_TRUE(conditional && conditional->device_extension);
  EXPECT_STREQ(conditional->device_extension, "VK_EXT_conditional_rendering");
  EXPECT_EQ(conditional->instance_extension, nullptr);
  const CommandDesc* promoted = desc(VkOp::vkGetPhysicalDeviceProperties2);
  ASSERT_TRUE(promoted);
  EXPECT_EQ(promoted->instance_extension, nullptr);
  EXPECT_EQ(promoted->device_extension, nullptr);
}

namespace {

// What the host decodes: a guest's values, judged before a driver sees them.
class FromGuest : public TestHandles {
 public:
  bool from_guest() const override { return true; }
};

// Whether the host takes the command `args` holds; the flat path (most
// of a frame's commands) must judge it as the general one does.
template <typename Args>
bool command_decodes(VkOp op, const Args& args) {
  const CommandDesc& c = *command_desc(static_cast<uint32_t>(op));
  TestHandles sender;
  wire::Writer w;
  encode_args(w, c, &args, sender);
  const std::vector<std::byte> bytes(w.bytes().begin(), w.bytes().end());
  std::vector<std::byte> out(c.args_size);
  Arena arena;
  std::vector<NewHandle> created;
  FromGuest host;
  wire::Reader r(bytes, 0);
  const bool taken = decode_args(r, c, arena, out.data(), host, created).ok();
  wire::Reader flat(bytes, 0);
  EXPECT_TRUE(!is_flat_command(c) || decode_flat_command(flat, c, out.data(), host).ok() == taken) << c.name;
  return taken;
}

template <typename T>
bool struct_decodes(const T& s) {
  const StructDesc& d = *struct_by_stype(s.sType);
  TestHandles sender;
  auto bytes = encode(d, &s, sender);
  wire::Reader r(bytes, 0);
  Arena arena;
  T out{};
  FromGuest host;
  return decode_struct(r, d, arena, &out, host).ok();
}

}  // namespace

// A guest's bitmask holds only bits vk.xml gives its FlagBits type, those of
// any extension included; a bitmask with no FlagBits yet, or one the spec
// lets be ignored, is not judged.
TEST(VkCodec, BitmasksFromAGuestHoldOnlyTheirTypesBits) {
  const auto cb = reinterpret_cast<VkCommandBuffer>(uint64_t{0x10});
  EXPECT_TRUE(command_decodes(VkOp::vkCmdSetCullMode, VkArgs_vkCmdSetCullMode{cb, VK_CULL_MODE_FRONT_AND_BACK}));
  EXPECT_FALSE(command_decodes(VkOp::vkCmdSetCullMode, VkArgs_vkCmdSetCullMode{cb, 4}));
  EXPECT_TRUE(command_decodes(VkOp::vkCmdSetStencilCompareMask,
                           VkArgs_vkCmdSetStencilCompareMask{cb, VK_STENCIL_FACE_BACK_BIT, 0xff}));
  EXPECT_FALSE(command_decodes(VkOp::vkCmdSetStencilCompareMask, VkArgs_vkCmdSetStencilCompareMask{cb, 0x13, 0xff}));

  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.cullMode = VK_CULL_MODE_BACK_BIT;
  EXPECT_TRUE(struct_decodes(raster));
  raster.cullMode = 8;
  EXPECT_FALSE(struct_decodes(raster));

  VkBufferCreateInfo buffer{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer.size = 64;
  buffer.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
  EXPECT_TRUE(struct_decodes(buffer));
  buffer.usage = VK_BUFFER_USAGE_MICROMAP_STORAGE_BIT_EXT;  // of an extension not carried
  EXPECT_TRUE(struct_decodes(buffer));
  buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | 0x80000000u;
  EXPECT_FALSE(struct_decodes(buffer));

  // A mask the spec lets be ignored (noautovalidity: an ownership
  // transfer's access masks) is not judged either.
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.image = VkImage(0x30);
  barrier.srcAccessMask = 0x80000000u;
  EXPECT_TRUE(struct_decodes(barrier));

  VkBufferViewCreateInfo view{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  view.buffer = VkBuffer(0x20);
  view.flags = 1;  // VkBufferViewCreateFlags: reserved, no FlagBits in vk.xml
  EXPECT_TRUE(struct_decodes(view));
}
