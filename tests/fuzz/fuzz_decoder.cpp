// libFuzzer target: arbitrary bytes as a batch of GL and Vulkan commands.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "decode_any.h"
#include "wire/reader.h"
#include "wire/vk_codec.h"

namespace {

// Every id names an object of whatever type is asked: what is left to
// find is the codec's own reading.
class AnyHandles : public wire::vk::Handles {
 public:
  uint64_t to_wire(VkObjectType, bool, uint64_t h) override { return h; }
  wire::Result<uint64_t> from_wire(VkObjectType, bool, uint64_t id) override { return id; }
};

void decode_vulkan(uint32_t opcode, wire::Reader& r) {
  const wire::vk::CommandDesc* cmd = wire::vk::command_desc(opcode);
  if (!cmd) return;
  AnyHandles handles;
  if (wire::vk::is_flat_command(*cmd)) {  // as the host runs most recorded commands
    wire::Reader flat = r;
    std::vector<std::byte> record(cmd->args_size);
    (void)wire::vk::decode_flat_command(flat, *cmd, record.data(), handles);
  }
  wire::vk::Arena arena(16u << 20);
  std::vector<wire::vk::NewHandle> created;
  auto args = arena.alloc(1, cmd->args_size, 0);
  if (!args || !wire::vk::decode_args(r, *cmd, arena, *args, handles, created)) return;
  // What the host answers is read from what it decoded.
  wire::Writer reply;
  wire::vk::encode_reply(reply, *cmd, *args, 0, handles);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const std::byte> batch(reinterpret_cast<const std::byte*>(data), size);
  wire::CommandIterator it(batch);
  while (!it.done()) {
    auto cmd = it.next();
    if (!cmd) break;
    wire::Reader r(cmd->payload, cmd->offset, batch.first(size / 2));
    if (wire::range_of(cmd->opcode) == wire::OpcodeRange::kVulkan) {
      decode_vulkan(cmd->opcode, r);
    } else {
      (void)decode_any(cmd->opcode, r);
    }
  }
  return 0;
}
