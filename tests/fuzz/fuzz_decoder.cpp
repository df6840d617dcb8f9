// libFuzzer target: arbitrary bytes as a batch of GL commands.
#include <cstddef>
#include <cstdint>
#include <span>

#include "decode_any.h"
#include "wire/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const std::byte> batch(reinterpret_cast<const std::byte*>(data), size);
  wire::CommandIterator it(batch);
  while (!it.done()) {
    auto cmd = it.next();
    if (!cmd) break;
    wire::Reader r(cmd->payload, cmd->offset, batch.first(size / 2));
    (void)decode_any(cmd->opcode, r);
  }
  return 0;
}
